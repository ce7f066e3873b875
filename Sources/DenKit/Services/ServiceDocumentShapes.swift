// The few shapes most service documents share, each written once: a conformance to one of
// these protocols is the document's hand-written JSON form (`WireDocument`).

/// `{"key": "…"}`.
package protocol KeyDocument: WireDocument {
    var key: String { get }
    init(key: String)
}

extension KeyDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        self.init(key: try value.object().string("key"))
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("key", key)
        writer.endObject()
    }
}

/// `{"key": "…", "value": "…"}`.
package protocol KeyValueDocument: WireDocument {
    var key: String { get }
    var value: String { get }
    init(key: String, value: String)
}

extension KeyValueDocument {
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

/// `{"value": "…"}`, or `{"value": null}` for none: always written, so the answer says "nothing"
/// rather than leaving the key out.
package protocol OptionalValueDocument: WireDocument {
    var value: String? { get }
    init(value: String?)
}

extension OptionalValueDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        // null is read as decodeIfPresent reads it.
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

/// `{"deleted": true}`.
package protocol DeletedDocument: WireDocument {
    var deleted: Bool { get }
    init(deleted: Bool)
}

extension DeletedDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        self.init(deleted: try value.object().required("deleted").bool())
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("deleted", deleted)
        writer.endObject()
    }
}
