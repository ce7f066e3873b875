// The hand-written JSON form of `plugins.list`'s answer (WireDocument), with the keys of
// PluginSummary's CodingKeys; it grows by one entry per installed module, so About's page
// with a hundred modules installed reads it without Codable's cost per entry.

extension PluginSummary: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        // One pass over the members, not a look-up per key: an entry has up to fifteen keys,
        // and a hundred entries looked each up in turn. A repeated key keeps its first value,
        // as JSONDecoder does; a value of another type misses (JSONDecoder then words it).
        let object = try value.object()
        var file: String?
        var status: Status?
        self.init(id: nil, version: nil, summary: nil, file: "", routes: [], status: .failed)
        var seen = 0 // a bit per key read
        func first(_ bit: Int) -> Bool {
            defer { seen |= bit }
            return seen & bit == 0
        }
        for entry in object.members {
            let member = entry.value
            switch entry.key {
            case "id": if first(1 << 0) { id = try member.string() }
            case "version": if first(1 << 1) { version = try member.string() }
            case "summary": if first(1 << 2) { summary = try member.string() }
            case "file": if first(1 << 3) { file = try member.string() }
            case "routes": if first(1 << 4) { routes = try member.strings() }
            case "requires_login": if first(1 << 5) { requiresLogin = try member.strings() }
            case "status":
                if first(1 << 6) {
                    guard let read = Status(rawValue: try member.string()) else { throw JSONMiss() }
                    status = read
                }
            case "error": if first(1 << 7) { error = try member.string() }
            case "generation": if first(1 << 8) { generation = try member.int() }
            case "loaded_at": if first(1 << 9) { loadedAt = try member.string() }
            case "retained_images": if first(1 << 10) { retainedImages = try member.int() }
            case "retained_bytes": if first(1 << 11) { retainedBytes = Int64(try member.int()) }
            case "swap_error": if first(1 << 12) { swapError = try member.string() }
            case "hosting": if first(1 << 13) { hosting = try member.string() }
            case "publisher": if first(1 << 14) { publisher = try member.string() }
            case "signature": if first(1 << 15) { signature = try member.string() }
            case "permissions": if first(1 << 16) { permissions = try ModulePermissions(wire: member) }
            case "busy": if first(1 << 17) { busy = try member.string() }
            default: break // a key of a later revision
            }
        }
        guard let file, let status else { throw JSONMiss() }
        self.file = file
        self.status = status
    }

    package func write(to writer: inout JSONWriter) {
        write(to: &writer, fields: .all)
    }

    /// Only `fields`, with `file` and `status` (a `plugins.list` request's `fields`).
    package func write(to writer: inout JSONWriter, fields: Fields) {
        writer.beginObject()
        if fields.contains(.busy) { writer.member("busy", ifPresent: busy) }
        if fields.contains(.error) { writer.member("error", ifPresent: error) }
        writer.member("file", file)
        if fields.contains(.generation) { writer.member("generation", ifPresent: generation) }
        if fields.contains(.hosting) { writer.member("hosting", ifPresent: hosting) }
        if fields.contains(.id) { writer.member("id", ifPresent: id) }
        if fields.contains(.loadedAt) { writer.member("loaded_at", ifPresent: loadedAt) }
        if fields.contains(.permissions), let permissions {
            writer.key("permissions")
            permissions.write(to: &writer)
        }
        if fields.contains(.publisher) { writer.member("publisher", ifPresent: publisher) }
        if fields.contains(.requiresLogin), let requiresLogin { writer.member("requires_login", strings: requiresLogin) }
        if fields.contains(.retainedBytes) { writer.member("retained_bytes", ifPresent: retainedBytes.map(Int.init)) }
        if fields.contains(.retainedImages) { writer.member("retained_images", ifPresent: retainedImages) }
        if fields.contains(.routes) { writer.member("routes", strings: routes) }
        if fields.contains(.signature) { writer.member("signature", ifPresent: signature) }
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
