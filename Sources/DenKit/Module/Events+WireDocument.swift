#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The hand-written JSON form of what the host sends a module (WireDocument): build requests
// and events, with the rules of BuildContext.swift, ModuleEvent.swift and FieldChange.swift.

extension BuildRequest: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        var queryValues: [String: [String]]?
        if let values = object["queryValues"] {
            let members = try values.object().members
            var decoded: [String: [String]] = Dictionary(minimumCapacity: members.count)
            for member in members where decoded[member.key] == nil { decoded[member.key] = try member.value.strings() }
            queryValues = decoded
        }
        self.init(route: try object.string("route"), pattern: try object.string("pattern"),
                  parameters: try object.required("parameters").stringDictionary(),
                  query: try object.required("query").stringDictionary(), queryValues: queryValues)
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("parameters")
        writer.stringDictionary(parameters)
        writer.member("pattern", pattern)
        writer.key("query")
        writer.stringDictionary(query)
        if let queryValues {
            writer.key("queryValues")
            writer.beginObject()
            for key in queryValues.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                writer.member(key, strings: queryValues[key]!)
            }
            writer.endObject()
        }
        writer.member("route", route)
        writer.endObject()
    }
}

/// `"v"` (1 when absent) must be a version this DenKit reads (`checkEventVersion`).
private func checkEventVersion(_ object: JSONObject) throws(JSONMiss) {
    guard (try object.optionalInt("v") ?? 1) <= WireFormat.version else { throw JSONMiss() }
}

extension ModuleEvent: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        try checkEventVersion(object)
        switch try object.string("type") {
        case "appear": self = .appear
        case "action":
            self = .action(id: try object.string("id"), fields: try object.optionalStringDictionary("fields") ?? [:])
        default: throw JSONMiss()
        }
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        switch self {
        case .appear:
            writer.member("type", "appear")
        case .action(let id, let fields):
            writer.key("fields")
            writer.stringDictionary(fields)
            writer.member("id", id)
            writer.member("type", "action")
        }
        writer.member("v", WireFormat.version)
        writer.endObject()
    }
}

extension FieldChange: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        try checkEventVersion(object)
        guard try object.string("type") == "change" else { throw JSONMiss() }
        self.init(field: try object.string("field"), fields: try object.optionalStringDictionary("fields") ?? [:])
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("field", field)
        writer.key("fields")
        writer.stringDictionary(fields)
        writer.member("type", "change")
        writer.member("v", WireFormat.version)
        writer.endObject()
    }
}

extension IncomingEvent {
    /// The event in `data`: read by hand, or by JSONDecoder when that misses (`WireDocument`).
    static func read(_ data: Data) throws -> IncomingEvent {
        if let parsed = JSONReader.parse(data), let event = try? IncomingEvent(wire: parsed) { return event }
        return try WireFormat.decode(IncomingEvent.self, from: data)
    }

    /// Told apart by `type`, as `init(from:)` does.
    init(wire value: JSONValue) throws(JSONMiss) {
        self = try value.object().optionalString("type") == "change"
            ? .change(try FieldChange(wire: value)) : .event(try ModuleEvent(wire: value))
    }
}
