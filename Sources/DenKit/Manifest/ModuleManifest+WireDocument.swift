// The hand-written reading of a manifest (WireDocument), with ModuleManifest.swift's rules: the
// host reads every installed module's manifest at start, so this is where a hundred modules
// cost their time. The writer is for symmetry and the specs; `json()` stays pretty-printed.

extension ModuleManifest: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        var routes: [Route] = []
        for route in try object.array("routes") {
            let fields = try route.object()
            routes.append(Route(try fields.string("pattern"), requiresLogin: try fields.optionalBool("requiresLogin") ?? false))
        }
        var settings: [SettingDefinition] = []
        for setting in try object.optionalArray("settings") ?? [] { settings.append(try SettingDefinition(wire: setting)) }
        var exports: [Export]?
        if let listed = try object.optionalArray("exports") {
            var decoded: [Export] = []
            for export in listed {
                let fields = try export.object()
                decoded.append(Export(name: try fields.string("name"), signature: try fields.optionalString("signature")))
            }
            exports = decoded
        }
        self.init(id: try object.string("id"), version: try object.string("version"),
                  summary: try object.optionalString("summary") ?? "", routes: routes, settings: settings, exports: exports)
        v = try object.int("v")
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        if declaresExports {
            writer.key("exports")
            writer.beginArray()
            for export in exports {
                writer.beginObject()
                writer.member("name", export.name)
                writer.member("signature", ifPresent: export.signature)
                writer.endObject()
            }
            writer.endArray()
        }
        writer.member("id", id)
        writer.key("routes")
        writer.beginArray()
        for route in routes {
            writer.beginObject()
            writer.member("pattern", route.pattern)
            if route.requiresLogin { writer.member("requiresLogin", true) }
            writer.endObject()
        }
        writer.endArray()
        writer.key("settings")
        writer.beginArray()
        for setting in settings { setting.write(to: &writer) }
        writer.endArray()
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
