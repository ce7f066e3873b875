/// The document a module sends with `settings.declare` during `den_module_entry`:
/// `{"v": 1, "settings": [{"name", "type", "default", "help", "min"?, "max"?, "options"?, "empty"?}]}`
/// (docs/ABI.md, docs/schema/v1/service/settings.declare.request.json). Only JSON crosses: the
/// host decodes it with its own copy of DenKit.
public struct SettingsDeclaration: Codable, Sendable, Equatable {
    public static let operation = "settings.declare"

    public var v: Int
    public var settings: [SettingDefinition]

    public init(settings: [SettingDefinition]) {
        self.v = 1
        self.settings = settings
    }

    /// Why the declaration is refused (the first problem), or nil.
    public var problem: String? {
        guard v == 1 else { return "settings declaration version \(v) is not 1" }
        var seen = Set<String>()
        for setting in settings {
            if let problem = setting.declarationProblem { return problem }
            guard seen.insert(setting.name).inserted else { return "setting '\(setting.name)' is declared twice" }
        }
        return nil
    }
}
