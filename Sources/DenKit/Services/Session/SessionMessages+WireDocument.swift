// The session documents' hand-written JSON form: a module asks `session.get` for the user at
// every step, and JSONDecoder's set-up cost more than the rest of the call. Plain forms only;
// JSONDecoder decides the rest (`WireDocument`).

extension SessionGetRequest: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        self.init(key: try value.object().string("key"))
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("key", key)
        writer.endObject()
    }
}

extension SessionGetAnswer: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        // null is how the host says "absent": read as decodeIfPresent reads it.
        let member = try value.object()["value"]
        if case .null = member { self.init(value: nil) } else { self.init(value: try member?.string()) }
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("value")
        if let value { writer.string(value) } else { writer.null() }
        writer.endObject()
    }
}

extension SessionSetRequest: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        self.init(key: try object.string("key"), value: try object.string("value"))
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("key", key)
        writer.member("value", value)
        writer.endObject()
    }
}

extension SessionDeleteRequest: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        self.init(key: try value.object().string("key"))
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("key", key)
        writer.endObject()
    }
}

extension SessionDeleteAnswer: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        self.init(deleted: try value.object().required("deleted").bool())
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("deleted", deleted)
        writer.endObject()
    }
}
