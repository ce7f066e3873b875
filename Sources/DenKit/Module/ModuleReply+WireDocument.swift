// The hand-written JSON form of a reply (WireDocument), with ModuleReply.swift's rules: `v` and
// `screen` required, `effects` optional, an effect of a type this version does not know skipped.

extension ModuleReply: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        var effects: [Effect] = [] // compactMap has no typed throws
        for effect in try object.optionalArray("effects") ?? [] {
            if let known = try Effect(knownWire: effect) { effects.append(known) }
        }
        self.init(screen: try Screen(wire: object.required("screen")), effects: effects)
        v = try object.int("v")
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("effects", each: effects) { $0.write(to: &$1) }
        writer.key("screen")
        screen.write(to: &writer)
        writer.member("v", v)
        writer.endObject()
    }
}

extension Effect {
    /// The effect, or nil for a type this version does not know (`KnownEffect`).
    init?(knownWire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        switch try object.string("type") {
        case "navigate": self = .navigate(try object.string("route"))
        case "back": self = .back
        case "replace": self = .replace(try object.string("route"))
        case "open_url": self = .openURL(try object.string("url"))
        default: return nil
        }
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        switch self {
        case .navigate(let route):
            writer.member("route", route)
            writer.member("type", "navigate")
        case .back:
            writer.member("type", "back")
        case .replace(let route):
            writer.member("route", route)
            writer.member("type", "replace")
        case .openURL(let url):
            writer.member("type", "open_url")
            writer.member("url", url)
        }
        writer.endObject()
    }
}
