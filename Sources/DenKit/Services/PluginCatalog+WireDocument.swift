// The hand-written JSON form of `plugins.list`'s answer (WireDocument), with the keys of
// PluginSummary's CodingKeys; it grows by one entry per installed module, so About's page
// with a hundred modules installed reads it without Codable's cost per entry.

extension PluginSummary: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        guard let status = Status(rawValue: try object.string("status")) else { throw JSONMiss() }
        self.init(id: try object.optionalString("id"), version: try object.optionalString("version"),
                  summary: try object.optionalString("summary"), file: try object.string("file"),
                  routes: try object.strings("routes"), requiresLogin: try object.optionalStrings("requires_login"),
                  status: status, error: try object.optionalString("error"))
        generation = try object.optionalInt("generation")
        loadedAt = try object.optionalString("loaded_at")
        retainedImages = try object.optionalInt("retained_images")
        retainedBytes = try object.optionalInt("retained_bytes").map(Int64.init)
        swapError = try object.optionalString("swap_error")
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("error", ifPresent: error)
        writer.member("file", file)
        writer.member("generation", ifPresent: generation)
        writer.member("id", ifPresent: id)
        writer.member("loaded_at", ifPresent: loadedAt)
        if let requiresLogin { writer.member("requires_login", strings: requiresLogin) }
        writer.member("retained_bytes", ifPresent: retainedBytes.map(Int.init))
        writer.member("retained_images", ifPresent: retainedImages)
        writer.member("routes", strings: routes)
        writer.member("status", status.rawValue)
        writer.member("summary", ifPresent: summary)
        writer.member("swap_error", ifPresent: swapError)
        writer.member("version", ifPresent: version)
        writer.endObject()
    }
}

extension PluginListResponse: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        self.init(plugins: try value.object().array("plugins").map(PluginSummary.init(wire:)))
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("plugins", each: plugins) { $0.write(to: &$1) }
        writer.endObject()
    }
}
