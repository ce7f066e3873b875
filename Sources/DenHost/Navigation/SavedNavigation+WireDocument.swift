import DenKit

// The hand-written JSON forms of a saved session's parts (WireDocument): den serve writes one
// after every step that changes a session, and JSONEncoder spent more on it than the step's
// module calls. The Codable conformances stay the reference; a document the readers here miss
// goes to JSONDecoder.

extension SavedNavigation.Screen: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        route = try object.string("route")
        moduleID = try object.optionalString("moduleID")
        guardedFor = try object.optionalString("guardedFor")
        snapshot = try object.optionalString("snapshot")
        shown = try object["shown"].map { (shown) throws(JSONMiss) in try DenKit.Screen(wire: shown) }
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("guardedFor", ifPresent: guardedFor)
        writer.member("moduleID", ifPresent: moduleID)
        writer.member("route", route)
        if let shown {
            writer.key("shown")
            shown.write(to: &writer)
        }
        writer.member("snapshot", ifPresent: snapshot)
        writer.endObject()
    }
}

extension SavedNavigation: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        var stack: [Screen] = []
        for screen in try object.array("stack") { stack.append(try Screen(wire: screen)) }
        self.init(stack: stack)
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("stack", each: stack) { $0.write(to: &$1) }
        writer.endObject()
    }
}

extension SessionStore.Saved: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        user = try object.optionalString("user")
        account = try object.optionalString("account")
        var values: [String: [String: String]] = [:]
        for member in try object.required("values").object().members where values[member.key] == nil {
            values[member.key] = try member.value.stringDictionary()
        }
        self.values = values
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("account", ifPresent: account)
        writer.member("user", ifPresent: user)
        writer.key("values")
        writer.beginObject()
        for module in values.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            writer.key(module)
            writer.stringDictionary(values[module]!)
        }
        writer.endObject()
        writer.endObject()
    }
}
