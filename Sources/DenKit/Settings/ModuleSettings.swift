/// A module's settings as its code reads them: the stored value (`config.<name>` in the
/// module's storage) when it passes the declared rule, else the default. A stored value that
/// breaks the rule (written before the rule existed, or by hand) is reported, never used.
public struct ModuleSettings {
    /// The storage key of a setting: `config.<name>`.
    public static func key(_ name: String) -> String { "config.\(name)" }

    public let definitions: [SettingDefinition]
    private let read: (String) throws -> String?

    /// Reads stored values with `read` (given a storage key, `config.<name>`).
    public init(_ definitions: [SettingDefinition], read: @escaping (String) throws -> String?) {
        self.definitions = definitions
        self.read = read
    }

    public init(_ definitions: [SettingDefinition], store: any KeyValueStore) {
        self.init(definitions) { try store.get($0) }
    }

    /// A setting's value and, when the stored one could not be used, why.
    public struct Value: Sendable, Equatable {
        public var value: String
        public var isDefault: Bool
        public var problem: String?

        public init(value: String, isDefault: Bool, problem: String? = nil) {
            self.value = value
            self.isDefault = isDefault
            self.problem = problem
        }
    }

    public func value(_ name: String) -> Value {
        guard let definition = definitions.first(where: { $0.name == name }) else {
            return Value(value: "", isDefault: true, problem: "'\(name)' is not a declared setting")
        }
        let stored: String?
        do {
            stored = try read(Self.key(name))
        } catch {
            return Value(value: definition.defaultValue, isDefault: true,
                         problem: "the setting '\(name)' could not be read (\(error)); the default is used")
        }
        guard let stored = stored.map(SettingDefinition.normalize) else {
            return Value(value: definition.defaultValue, isDefault: true)
        }
        if let problem = definition.problem(with: stored) {
            return Value(value: definition.defaultValue, isDefault: true,
                         problem: "\(problem); the default \(definition.defaultValue.isEmpty ? "(empty)" : definition.defaultValue) is used")
        }
        return Value(value: stored, isDefault: false)
    }
}
