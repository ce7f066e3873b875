#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One setting a module declares: its name, type, default, one line of help and its rule.
/// The module declares its settings when it loads (`ModuleDefinition.settings`); the host
/// learns them as JSON (docs/ABI.md, `settings.declare`), lists them in `den config show`
/// and refuses `den config set` values that break the rule, so a typo never lands in storage.
/// Values are strings, as storage keeps them (key `config.<name>` in the module's namespace).
public struct SettingDefinition: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, Equatable {
        /// Any single line of text.
        case string
        /// An absolute http:// or https:// URL with a host.
        case url
        /// A whole number between `minimum` and `maximum`.
        case integer
        /// `true` or `false`.
        case boolean
        /// One of `options`.
        case choice
    }

    public var name: String
    public var kind: Kind
    /// The value used while none is set (`den config unset` goes back to it).
    public var defaultValue: String
    /// One line shown by `den config show`.
    public var help: String
    public var minimum: Int?
    public var maximum: Int?
    public var options: [String]?
    /// When set, an empty value is allowed and means this (e.g. "stay offline").
    public var emptyMeans: String?

    public init(_ name: String, kind: Kind, default defaultValue: String, help: String, minimum: Int? = nil,
                maximum: Int? = nil, options: [String]? = nil, emptyMeans: String? = nil) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.help = help
        self.minimum = minimum
        self.maximum = maximum
        self.options = options
        self.emptyMeans = emptyMeans
    }

    private enum CodingKeys: String, CodingKey {
        case name, kind = "type", defaultValue = "default", help, minimum = "min", maximum = "max", options
        case emptyMeans = "empty"
    }

    /// Names are like module ids, with `_` between words: `rates_url`, `fetch_timeout`.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (0x61...0x7A).contains(first), name.utf8.count <= 64 else { return false }
        return name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }

    /// What values are allowed, as a phrase: "an http:// or https:// URL (empty: stay offline)".
    public var rule: String {
        let base: String = switch kind {
        case .string: "one line of text"
        case .url: "an http:// or https:// URL"
        case .integer: "a whole number from \(minimum.map(String.init) ?? "any") to \(maximum.map(String.init) ?? "any")"
        case .boolean: "true or false"
        case .choice: "one of \((options ?? []).joined(separator: ", "))"
        }
        return emptyMeans.map { "\(base) (empty: \($0))" } ?? base
    }

    /// A value as it is checked and stored: without surrounding spaces, tabs and line breaks
    /// (a URL pasted with a trailing space is still the URL).
    public static func normalize(_ value: String) -> String {
        value.trimmingWhitespace()
    }

    /// Why `value` is not allowed (naming what is), or nil when it is.
    public func problem(with value: String) -> String? {
        if value.isEmpty { return emptyMeans == nil ? "'\(name)' cannot be empty; it takes \(rule)" : nil }
        // ASCII by bytes: a scalar's general category is a table look-up of some hundred
        // instructions, and every declared default is checked at every start.
        let hasControl = value.utf8.allSatisfy { $0 < 0x80 }
            ? value.utf8.contains { $0 < 0x20 || $0 == 0x7F }
            : value.unicodeScalars.contains { $0.properties.generalCategory == .control }
        if hasControl {
            return "'\(name)' takes \(rule), on one line without control characters"
        }
        var refused: String { "'\(value)' is not allowed for '\(name)', which takes \(rule)" }
        switch kind {
        case .string:
            return nil
        case .url:
            guard let url = URL(string: value), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  let host = url.host, !host.isEmpty, !value.contains(" ") else { return refused }
            return nil
        case .integer:
            guard value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) || (value.hasPrefix("-") && value.count > 1
                    && value.dropFirst().utf8.allSatisfy({ (0x30...0x39).contains($0) })),
                  let number = Int(value),
                  number >= (minimum ?? .min), number <= (maximum ?? .max) else { return refused }
            return nil
        case .boolean:
            return value == "true" || value == "false" ? nil : refused
        case .choice:
            return (options ?? []).contains(value) ? nil : refused
        }
    }

    /// Why this definition itself is wrong (a bad name, or a default its own rule refuses).
    public var declarationProblem: String? {
        guard Self.isValidName(name) else {
            return "setting name '\(name)' is not valid (1-64 characters of a-z, 0-9 and _, starting with a letter)"
        }
        if kind == .choice, options?.isEmpty ?? true { return "setting '\(name)' is a choice without options" }
        if let minimum, let maximum, minimum > maximum { return "setting '\(name)' has min \(minimum) above max \(maximum)" }
        if let problem = problem(with: defaultValue) { return "the default of setting '\(name)' is refused: \(problem)" }
        return nil
    }
}
