// The hand-written reading of a manifest (WireDocument), with ModuleManifest.swift's rules: the
// host reads every installed module's manifest at start, so this is where a hundred modules
// cost their time. The writer is for symmetry and the specs; `json()` stays pretty-printed.

extension ModuleManifest: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        let routes = try object.array("routes").map { (route) throws(JSONMiss) in
            let fields = try route.object()
            return Route(try fields.string("pattern"), requiresLogin: try fields.optionalBool("requiresLogin") ?? false)
        }
        let settings = try (object.optionalArray("settings") ?? []).map(SettingDefinition.init(wire:))
        let exports = try object.optionalArray("exports")?.map { (export) throws(JSONMiss) in
            let fields = try export.object()
            return Export(name: try fields.string("name"), signature: try fields.optionalString("signature"),
                          summary: try fields.optionalString("summary"))
        }
        let navigation = try (object.optionalArray("navigation") ?? []).map { (entry) throws(JSONMiss) in
            let fields = try entry.object()
            return NavigationEntry(title: try fields.string("title"), route: try fields.string("route"),
                                   order: try fields.optionalInt("order") ?? 0,
                                   requiresLogin: try fields.optionalBool("requiresLogin") ?? false)
        }
        self.init(id: try object.string("id"), version: try object.string("version"),
                  summary: try object.optionalString("summary") ?? "", routes: routes, settings: settings, exports: exports,
                  navigation: navigation,
                  permissions: try object["permissions"].map(ModulePermissions.init(wire:)) ?? .nothing,
                  requires: try Self.requires(object["requires"]))
        v = try object.int("v")
    }

    /// `requires`: module id → range, each a string; a repeated id is a miss, as in JSONDecoder.
    private static func requires(_ value: JSONValue?) throws(JSONMiss) -> [String: String] {
        guard let value else { return [:] }
        var requires: [String: String] = [:]
        for member in try value.object().members {
            guard requires.updateValue(try member.value.string(), forKey: member.key) == nil else { throw JSONMiss() }
        }
        return requires
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        if declaresExports {
            writer.member("exports", each: exports) { export, writer in
                writer.beginObject()
                writer.member("name", export.name)
                writer.member("signature", ifPresent: export.signature)
                writer.member("summary", ifPresent: export.summary)
                writer.endObject()
            }
        }
        writer.member("id", id)
        if !navigation.isEmpty {
            writer.member("navigation", each: navigation) { entry, writer in
                writer.beginObject()
                writer.member("order", entry.order)
                if entry.requiresLogin { writer.member("requiresLogin", true) }
                writer.member("route", entry.route)
                writer.member("title", entry.title)
                writer.endObject()
            }
        }
        if !permissions.isEmpty {
            writer.key("permissions")
            permissions.write(to: &writer)
        }
        if !requires.isEmpty {
            writer.key("requires")
            writer.beginObject()
            for (id, range) in requires.sorted(by: { $0.key < $1.key }) { writer.member(id, range) }
            writer.endObject()
        }
        writer.member("routes", each: routes) { route, writer in
            writer.beginObject()
            writer.member("pattern", route.pattern)
            if route.requiresLogin { writer.member("requiresLogin", true) }
            writer.endObject()
        }
        writer.member("settings", each: settings) { $0.write(to: &$1) }
        writer.member("summary", summary)
        writer.member("v", v)
        writer.member("version", version)
        writer.endObject()
    }
}

extension SettingDefinition {
    init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        guard let kind = Kind(rawValue: try object.string("type")) else { throw JSONMiss() }
        self.init(try object.string("name"), kind: kind, default: try object.string("default"), help: try object.string("help"),
                  minimum: try object.optionalInt("min"), maximum: try object.optionalInt("max"),
                  options: try object.optionalStrings("options"), emptyMeans: try object.optionalString("empty"))
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("default", defaultValue)
        writer.member("empty", ifPresent: emptyMeans)
        writer.member("help", help)
        writer.member("max", ifPresent: maximum)
        writer.member("min", ifPresent: minimum)
        writer.member("name", name)
        if let options { writer.member("options", strings: options) }
        writer.member("type", kind.rawValue)
        writer.endObject()
    }
}
