import CDenABI
import DenAccounts
import DenHost
import DenKit
import DenSupport
import Foundation

/// The settings of the loaded modules and their stored values, for `den config`. Storage is
/// reached through the host's own storage service on the module's behalf, so `den config` obeys
/// the same rules (key and value limits, namespacing) as the module.
struct ModuleSettingsAccess {
    let runtime: DenRuntime

    init(host: HostOptions) throws {
        runtime = try host.makeRuntime(oneShot: true)
    }

    private var active: [PluginRecord] { runtime.registry.plugins.filter(\.isActive) }

    /// The settings `id` declares: a loaded module's, or the host's own `den.auth`; else an
    /// error listing what exists.
    func declared(_ id: String) throws -> [SettingDefinition] {
        if id == AuthSettingDefinitions.settingsID { return AuthSettingDefinitions.all }
        if id == HostingSettings.settingsID { return HostingSettings.definitions(for: active.compactMap(\.id)) }
        if id == AppSettingDefinitions.settingsID { return AppSettingDefinitions.all }
        if let record = active.first(where: { $0.id == id }) { return record.settings }
        let ids = active.compactMap(\.id).sorted()
        let known = ids.isEmpty ? "no module is loaded (see `den plugins`)" : "loaded modules: \(ids.joined(separator: ", "))"
        throw ConfigError(ModuleText.singleLine("no module '\(id)' is loaded; \(known); the host's login rules are '\(AuthSettingDefinitions.settingsID)', the app's name is in '\(AppSettingDefinitions.settingsID)'"))
    }

    /// The declared setting, or an error listing the module's settings (with a suggestion).
    func definition(module: String, name: String) throws -> SettingDefinition {
        let settings = try declared(module)
        if let definition = settings.first(where: { $0.name == name }) { return definition }
        let names = settings.map(\.name)
        guard !names.isEmpty else { throw ConfigError(ModuleText.singleLine("\(module) declares no settings")) }
        let guess = Suggestion.closest(to: name, in: names).map { " (did you mean \($0)?)" } ?? ""
        throw ConfigError(ModuleText.singleLine(
            "\(module) has no setting '\(name)'\(guess); its settings: \(names.joined(separator: ", "))"))
    }

    func storage(_ module: String) -> any SettingsStorage {
        if module == HostingSettings.settingsID { return HostingSettingsStorage(dataDirectory: runtime.configuration.dataDirectory) }
        // The host's settings live in its own namespace, reached as if it were a module's.
        let namespace = module == AuthSettingDefinitions.settingsID ? AuthSettingDefinitions.namespace
            : module == AppSettingDefinitions.settingsID ? AppSettingDefinitions.namespace : module
        return HostStorage(hub: runtime.services, caller: ServiceCaller(moduleID: namespace))
    }

    /// One line per loaded module: how many settings it declares.
    func overview() -> String {
        let lines = active.compactMap { record -> String? in
            guard let id = record.id else { return nil }
            let names = record.settings.map(\.name)
            return names.isEmpty ? "\(id): no settings" : "\(id): \(names.joined(separator: ", "))"
        }
        let host = "\(AuthSettingDefinitions.settingsID): \(AuthSettingDefinitions.all.map(\.name).joined(separator: ", ")) (the host's login rules)"
        let hosting = "\(HostingSettings.settingsID): one per module (in-process or isolated; docs/ISOLATION.md)"
        let app = "\(AppSettingDefinitions.settingsID): \(AppSettingDefinitions.all.map(\.name).joined(separator: ", ")) (the app's name in every page's header)"
        guard !lines.isEmpty else { return "No module is loaded (see `den plugins`).\n\(host)\n\(hosting)\n\(app)" }
        return (lines + [host, hosting, app] + ["", "Show one module's with `den config show <module>`."]).map { ModuleText.singleLine($0) }
            .joined(separator: "\n")
    }

    /// Every setting of `module` (or only `only`): value, whether it is the default, the rule
    /// and the help line; then stored values the module does not declare.
    func describe(module: String, only: String?) throws -> String {
        let declaredSettings = try declared(module)
        var definitions = declaredSettings
        if let only { definitions = [try definition(module: module, name: only)] }
        guard !definitions.isEmpty else { return "\(module) declares no settings." }
        let stored = Dictionary(try storage(module).list(prefix: ModuleSettings.key("")).map {
            (String($0.key.dropFirst(ModuleSettings.key("").count)), $0.value)
        }, uniquingKeysWith: { $1 })
        var lines = only == nil ? ["\(module) settings (change with `den config set \(module) <name> <value>`):"] : []
        for definition in definitions {
            let shown = { (value: String) in value.isEmpty ? "(empty)" : value }
            if let value = stored[definition.name] {
                if let problem = definition.problem(with: value) {
                    lines.append("\(definition.name) = \(shown(value))  REFUSED: \(problem); the default \(shown(definition.defaultValue)) is used")
                } else {
                    lines.append("\(definition.name) = \(shown(value))  (default: \(shown(definition.defaultValue)))")
                }
            } else {
                lines.append("\(definition.name) = \(shown(definition.defaultValue))  (default)")
            }
            lines.append("    \(definition.help) Takes \(definition.rule).")
        }
        let names = Swift.Set(declaredSettings.map(\.name))
        let strays = stored.keys.filter { !names.contains($0) }.sorted()
        if only == nil, !strays.isEmpty {
            lines.append("Stored but not settings of \(module) (ignored; remove with `den config unset \(module) <name>`):")
            for name in strays { lines.append("\(name) = \(stored[name] ?? "")") }
        }
        return lines.map { ModuleText.singleLine($0) }.joined(separator: "\n")
    }
}

/// Where `den config` reads and writes one settings id's values.
protocol SettingsStorage {
    func list(prefix: String) throws -> [StorageEntry]
    func set(_ key: String, _ value: String) throws
    func delete(_ key: String) throws -> Bool
}

/// `den.hosting`'s values, in `hosting.json` (`HostingSettings`).
struct HostingSettingsStorage: SettingsStorage {
    let dataDirectory: URL

    func list(prefix: String) throws -> [StorageEntry] {
        HostingSettings.stored(in: dataDirectory).filter { $0.key.hasPrefix(prefix) }.sorted { $0.key < $1.key }
            .map { StorageEntry(key: $0.key, value: $0.value) }
    }

    func set(_ key: String, _ value: String) throws {
        var values = HostingSettings.stored(in: dataDirectory)
        values[key] = value
        try HostingSettings.store(values, in: dataDirectory)
    }

    func delete(_ key: String) throws -> Bool {
        var values = HostingSettings.stored(in: dataDirectory)
        guard values.removeValue(forKey: key) != nil else { return false }
        try HostingSettings.store(values, in: dataDirectory)
        return true
    }
}

/// A module's storage through the host's service hub, as the module itself would call it.
struct HostStorage: SettingsStorage {
    let hub: ServiceHub
    let caller: ServiceCaller

    func list(prefix: String) throws -> [StorageEntry] {
        try call(StorageListRequest.operation, StorageListRequest(prefix: prefix), as: StorageListAnswer.self).entries
    }

    func set(_ key: String, _ value: String) throws {
        _ = try call(StorageSetRequest.operation, StorageSetRequest(key: key, value: value), as: Empty.self)
    }

    func delete(_ key: String) throws -> Bool {
        try call(StorageDeleteRequest.operation, StorageDeleteRequest(key: key), as: StorageDeleteAnswer.self).deleted
    }

    private func call<Request: Encodable, Response: Decodable>(_ operation: String, _ request: Request,
                                                                as: Response.Type) throws -> Response {
        let (status, body) = hub.call(operation, request: try WireFormat.encode(request), caller: caller)
        guard status == DEN_OK else { throw ConfigError(ModuleText.singleLine(String(decoding: body, as: UTF8.self))) }
        return try WireFormat.decode(Response.self, from: body)
    }
}
