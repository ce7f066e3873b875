// The hand-written JSON form of `plugins.list`'s answer (WireDocument), with the keys of
// PluginSummary's CodingKeys; it grows by one entry per installed module, so About's page
// with a hundred modules installed reads it without Codable's cost per entry.

extension PluginSummary: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        guard let status = Status(rawValue: try object.string("status")) else { throw JSONMiss() }
        self.init(id: try object.optionalString("id"), version: try object.optionalString("version"),
                  summary: try object.optionalString("summary"), file: try object.string("file"),
                  routes: try object.optionalStrings("routes") ?? [], requiresLogin: try object.optionalStrings("requires_login"),
                  status: status, error: try object.optionalString("error"))
        generation = try object.optionalInt("generation")
        loadedAt = try object.optionalString("loaded_at")
        retainedImages = try object.optionalInt("retained_images")
        retainedBytes = try object.optionalInt("retained_bytes").map(Int64.init)
        swapError = try object.optionalString("swap_error")
    }

    package func write(to writer: inout JSONWriter) {
        write(to: &writer, fields: .all)
    }

    /// Only `fields`, with `file` and `status` (a `plugins.list` request's `fields`).
    package func write(to writer: inout JSONWriter, fields: Fields) {
        writer.beginObject()
        if fields.contains(.error) { writer.member("error", ifPresent: error) }
        writer.member("file", file)
        if fields.contains(.generation) { writer.member("generation", ifPresent: generation) }
        if fields.contains(.id) { writer.member("id", ifPresent: id) }
        if fields.contains(.loadedAt) { writer.member("loaded_at", ifPresent: loadedAt) }
        if fields.contains(.requiresLogin), let requiresLogin { writer.member("requires_login", strings: requiresLogin) }
        if fields.contains(.retainedBytes) { writer.member("retained_bytes", ifPresent: retainedBytes.map(Int.init)) }
        if fields.contains(.retainedImages) { writer.member("retained_images", ifPresent: retainedImages) }
        if fields.contains(.routes) { writer.member("routes", strings: routes) }
        writer.member("status", status.rawValue)
        if fields.contains(.summary) { writer.member("summary", ifPresent: summary) }
        if fields.contains(.swapError) { writer.member("swap_error", ifPresent: swapError) }
        if fields.contains(.version) { writer.member("version", ifPresent: version) }
        writer.endObject()
    }
}

extension PluginListResponse: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        self.init(plugins: try value.object().array("plugins").map(PluginSummary.init(wire:)))
    }

    package func write(to writer: inout JSONWriter) {
        // An entry of About's five fields is ≈ 150 bytes, one with all of them a few hundred.
        writer.reserveCapacity(writer.bytes.count + 64 + plugins.count * (fields == .all ? 320 : 160))
        writer.beginObject()
        writer.member("plugins", each: plugins) { [fields] in $0.write(to: &$1, fields: fields) }
        writer.endObject()
    }
}

extension PluginListRequest: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        self.fields = try value.object().optionalStrings("fields")
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        if let fields { writer.member("fields", strings: fields) }
        writer.endObject()
    }
}
