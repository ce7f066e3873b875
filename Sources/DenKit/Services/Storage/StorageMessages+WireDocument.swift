// The storage documents' hand-written JSON form: a Jogs list of 50 records decoded by
// JSONDecoder on both sides of the call cost about a third of the page (docs/PERFORMANCE.md).
// Each reads what JSONDecoder reads in its plain form and misses otherwise, so JSONDecoder still
// decides, and words, every refusal (`WireDocument`).

extension StorageEntry: KeyValueDocument {}

extension StorageOperation: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        let key = try object.string("key")
        switch try object.string("op") {
        case "set": self = .set(key: key, value: try object.string("value"))
        case "delete": self = .delete(key: key)
        default: throw JSONMiss()
        }
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        switch self {
        case .set(let key, let value):
            writer.member("key", key)
            writer.member("op", "set")
            writer.member("value", value)
        case .delete(let key):
            writer.member("key", key)
            writer.member("op", "delete")
        }
        writer.endObject()
    }
}

extension StorageGetRequest: KeyDocument {}

extension StorageGetAnswer: OptionalValueDocument {}

extension StorageSetRequest: KeyValueDocument {}

extension StorageDeleteRequest: KeyDocument {}

extension StorageDeleteAnswer: DeletedDocument {}

extension StorageListRequest: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        self.init(prefix: try value.object().optionalString("prefix") ?? "")
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("prefix", prefix)
        writer.endObject()
    }
}

extension StorageListAnswer: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let elements = try value.object().array("entries")
        var entries: [StorageEntry] = []
        entries.reserveCapacity(elements.count)
        for element in elements { entries.append(try StorageEntry(wire: element)) }
        self.init(entries: entries)
    }

    package func write(to writer: inout JSONWriter) {
        // Keys and values as they are, with room for the quotes and names around each.
        writer.reserveCapacity(writer.bytes.count + 16 + entries.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 24 })
        writer.beginObject()
        writer.member("entries", each: entries) { $0.write(to: &$1) }
        writer.endObject()
    }
}

extension StorageInsert: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        self.init(counter: try object.string("counter"), prefix: try object.string("prefix"),
                  before: try object.string("before"), after: try object.string("after"))
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("after", after)
        writer.member("before", before)
        writer.member("counter", counter)
        writer.member("prefix", prefix)
        writer.endObject()
    }
}

extension StorageTransactionRequest: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        let elements = try object.array("operations")
        var operations: [StorageOperation] = []
        operations.reserveCapacity(elements.count)
        for element in elements { operations.append(try StorageOperation(wire: element)) }
        self.init(operations: operations, insert: try object["insert"].map { value throws(JSONMiss) in try StorageInsert(wire: value) })
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        if let insert {
            writer.key("insert")
            insert.write(to: &writer)
        }
        writer.member("operations", each: operations) { $0.write(to: &$1) }
        writer.endObject()
    }
}

extension StorageTransactionAnswer: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        self.init(inserted: try value.object().optionalInt("inserted"))
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("inserted", ifPresent: inserted)
        writer.endObject()
    }
}

extension StorageIncrementRequest: KeyDocument {}

extension StorageIncrementAnswer: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        self.init(value: try value.object().int("value"))
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("value", value)
        writer.endObject()
    }
}
