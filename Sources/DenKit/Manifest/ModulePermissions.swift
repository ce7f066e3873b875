#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a module may touch beyond what every module gets (its manifest's `permissions`, ABI
/// revision 5; docs/PERMISSIONS.md). Every module may use its own storage namespace, its session
/// values, the current user's id and name, `log` and its own settings without asking; these four
/// reach past the module itself, so it asks for them and the user agrees at install:
///
/// - `http`: the hosts `http.get` may fetch from (`api.example.org`, `*.example.org`, `*`);
/// - `exports`: other modules' exports it may call (`main.convert`, `main.*`);
/// - `auth`: log users in and out, register accounts, change and reset passwords;
/// - `plugins`: list the installed modules.
public struct ModulePermissions: Codable, Sendable, Equatable, Hashable {
    /// Host patterns, lower case, without a trailing dot (`HostPattern`).
    public var http: [String]
    /// Export patterns: `<module id>.<export name>` or `<module id>.*`.
    public var exports: [String]
    public var auth: Bool
    public var plugins: Bool
    /// Keys of the manifest's `permissions` object this den does not know (refused at load:
    /// a module asking for something a host cannot grant must not run as if it had it).
    public var unknownNames: [String] = []

    /// The permission names this den knows, in the order docs and prompts list them.
    public static let names = ["http", "exports", "auth", "plugins"]

    public init(http: [String] = [], exports: [String] = [], auth: Bool = false, plugins: Bool = false) {
        self.http = http
        self.exports = exports
        self.auth = auth
        self.plugins = plugins
    }

    /// Nothing beyond what every module gets (not `none`: beside an Optional that would read as nil).
    public static let nothing = ModulePermissions()

    public var isEmpty: Bool { http.isEmpty && exports.isEmpty && !auth && !plugins }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyName.self)
        http = try container.decodeIfPresent([String].self, forKey: AnyName("http")) ?? []
        exports = try container.decodeIfPresent([String].self, forKey: AnyName("exports")) ?? []
        auth = try container.decodeIfPresent(Bool.self, forKey: AnyName("auth")) ?? false
        plugins = try container.decodeIfPresent(Bool.self, forKey: AnyName("plugins")) ?? false
        unknownNames = container.allKeys.map(\.stringValue).filter { !Self.names.contains($0) }.sorted()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyName.self)
        if !http.isEmpty { try container.encode(http, forKey: AnyName("http")) }
        if !exports.isEmpty { try container.encode(exports, forKey: AnyName("exports")) }
        if auth { try container.encode(true, forKey: AnyName("auth")) }
        if plugins { try container.encode(true, forKey: AnyName("plugins")) }
    }

    private struct AnyName: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    // MARK: - Checks

    /// The first rule the declaration breaks, in words a module author can act on; nil when it holds.
    public var problem: String? {
        if let name = unknownNames.first {
            return "permission '\(name)' is not one this den knows (\(Self.names.joined(separator: ", "))); update den, or drop it"
        }
        for pattern in http {
            if let problem = HostPattern.problem(pattern) { return "http permission '\(pattern)': \(problem)" }
        }
        for pattern in exports {
            if let problem = ExportPattern.problem(pattern) { return "exports permission '\(pattern)': \(problem)" }
        }
        return nil
    }

    /// Whether `http.get` may fetch from `host` (already normalised by `HostPattern.normalise`).
    public func allowsHTTP(host: String) -> Bool {
        http.contains { HostPattern.matches($0, host: host) }
    }

    /// Whether this module may call the export `name` ("<module id>.<export name>").
    public func allowsExport(_ name: String) -> Bool {
        exports.contains { ExportPattern.matches($0, name: name) }
    }

    /// What these permissions ask for that `granted` does not cover; `.nothing` when nothing.
    public func beyond(_ granted: ModulePermissions) -> ModulePermissions {
        ModulePermissions(http: http.filter { pattern in !granted.http.contains { HostPattern.covers($0, pattern) } },
                          exports: exports.filter { pattern in !granted.exports.contains { ExportPattern.covers($0, pattern) } },
                          auth: auth && !granted.auth, plugins: plugins && !granted.plugins)
    }

    /// These permissions less `revoked` (whole permissions: every host, every export pattern).
    public func removing(_ name: String) -> ModulePermissions {
        var copy = self
        switch name {
        case "http": copy.http = []
        case "exports": copy.exports = []
        case "auth": copy.auth = false
        case "plugins": copy.plugins = false
        default: break
        }
        return copy
    }

    /// These permissions with `other`'s added (each pattern once).
    public func union(_ other: ModulePermissions) -> ModulePermissions {
        ModulePermissions(http: http + other.http.filter { !http.contains($0) },
                          exports: exports + other.exports.filter { !exports.contains($0) },
                          auth: auth || other.auth, plugins: plugins || other.plugins)
    }

    // MARK: - Words

    /// One line per permission, as `den modules install` asks and `den plugins` shows them.
    public var lines: [String] {
        var lines: [String] = []
        if !http.isEmpty { lines.append("http: fetch from " + http.map(HostPattern.describe).joined(separator: ", ")) }
        if !exports.isEmpty { lines.append("exports: call " + exports.map(ExportPattern.describe).joined(separator: ", ")) }
        if auth { lines.append("auth: log users in and out, register accounts, change and reset passwords") }
        if plugins { lines.append("plugins: list the installed modules") }
        return lines
    }

    /// A compact form for one table cell: `http(api.example.org) auth plugins`; "-" for none.
    public var brief: String {
        var parts: [String] = []
        if !http.isEmpty { parts.append("http(\(http.joined(separator: ",")))") }
        if !exports.isEmpty { parts.append("exports(\(exports.joined(separator: ",")))") }
        if auth { parts.append("auth") }
        if plugins { parts.append("plugins") }
        return parts.isEmpty ? "-" : parts.joined(separator: " ")
    }
}

extension ModulePermissions: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        self.init(http: try object.optionalStrings("http") ?? [], exports: try object.optionalStrings("exports") ?? [],
                  auth: try object.optionalBool("auth") ?? false, plugins: try object.optionalBool("plugins") ?? false)
        unknownNames = object.keys.filter { !Self.names.contains($0) }.sorted()
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        if auth { writer.member("auth", true) }
        if !exports.isEmpty { writer.member("exports", strings: exports) }
        if !http.isEmpty { writer.member("http", strings: http) }
        if plugins { writer.member("plugins", true) }
        writer.endObject()
    }
}

/// A host an `http` permission names: `api.example.org`, `*.example.org` (any host under
/// example.org, not example.org itself), an IPv4 address, an IPv6 address in brackets, or `*`
/// (any host). Lower-case ASCII: an IDN host is declared in its `xn--` form, the form den
/// connects to. Hosts are compared as written, never resolved: `127.0.0.1` is not `localhost`.
public enum HostPattern {
    /// What is wrong with a declared pattern; nil when it is one.
    public static func problem(_ pattern: String) -> String? {
        if pattern == "*" { return nil }
        if pattern.contains("://") || pattern.contains("/") {
            return "give a host name, not a URL (api.example.org)"
        }
        guard pattern.utf8.allSatisfy({ $0 < 0x80 }) else {
            return "write an international host name in its ASCII (xn--) form, the form den connects to"
        }
        guard pattern == pattern.lowercased() else { return "write it in lower case" }
        guard !pattern.hasSuffix(".") else { return "leave out the trailing dot" }
        if pattern.hasPrefix("[") {
            guard pattern.hasSuffix("]"), pattern.count > 2,
                  pattern.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return "an IPv6 address is written in brackets: [::1]"
            }
            return nil
        }
        if pattern.contains(":") { return "leave out the port: a permission names a host, on any port" }
        var labels = pattern.split(separator: ".", omittingEmptySubsequences: false)
        if labels.first == "*" {
            labels.removeFirst()
            guard labels.count >= 2 else { return "a wildcard needs a domain of at least two labels under it (*.example.org)" }
            guard !labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
                return "a wildcard stands for host names under a domain, not for addresses: name each address"
            }
        }
        for label in labels {
            guard !label.isEmpty, label.count <= 63 else { return "a label is empty or longer than 63 characters" }
            guard label.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }) else {
                return label == "*" ? "'*' may only be the whole first label (*.example.org)" : "use only a-z, 0-9, '-' and '.'"
            }
            guard label.first != "-", label.last != "-" else { return "a label may not start or end with '-'" }
        }
        guard pattern.utf8.count <= 253 else { return "a host name is at most 253 characters" }
        return nil
    }

    /// The host a URL names, as permissions compare it: lower case, without a trailing dot, an
    /// IPv6 address with its brackets. nil for a host no permission can name (not ASCII, or
    /// percent-encoded): such a fetch is refused.
    public static func normalise(_ host: String) -> String? {
        guard !host.isEmpty, host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") }) else { return nil }
        var host = host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        if host.contains(":") && !host.hasPrefix("[") { host = "[\(host)]" }
        return host.isEmpty ? nil : host
    }

    /// Whether `pattern` admits the normalised `host`.
    public static func matches(_ pattern: String, host: String) -> Bool {
        if pattern == "*" { return true }
        if pattern.hasPrefix("*.") { return host.hasSuffix(pattern.dropFirst()) && host.count > pattern.count - 1 }
        return pattern == host
    }

    /// Whether every host `requested` admits is admitted by `granted`.
    public static func covers(_ granted: String, _ requested: String) -> Bool {
        if granted == "*" || granted == requested { return true }
        if requested == "*" { return false }
        if requested.hasPrefix("*.") { return granted.hasPrefix("*.") && requested.hasSuffix(granted.dropFirst()) }
        return matches(granted, host: requested)
    }

    static func describe(_ pattern: String) -> String {
        if pattern == "*" { return "any host" }
        if pattern.hasPrefix("*.") { return "any host under \(pattern.dropFirst(2)) (\(pattern))" }
        return pattern
    }
}

/// An export an `exports` permission names: `main.convert`; `main.*` for every export of module
/// main (and only main: `main.*` does not admit `mainx.f`); `*.on_login` for the export of that
/// name of any module (a hook every module may offer).
public enum ExportPattern {
    public static func problem(_ pattern: String) -> String? {
        let parts = pattern.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return "write <module id>.<export name>, <module id>.* or *.<export name> (main.convert, main.*, *.on_login)" }
        let id = String(parts[0]), name = String(parts[1])
        if id == "*" {
            guard ExportName.isValid(name) else { return "'\(name)' is not an export name (\(ExportName.rule)); '*.*' is not allowed" }
            return nil
        }
        guard !id.isEmpty, id.count <= 64, id.first.map({ $0.isLetter || $0.isNumber }) == true,
              id.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F }) else {
            return "'\(id)' is not a module id (a-z, 0-9, '-' and '_')"
        }
        guard name == "*" || ExportName.isValid(name) else { return "'\(name)' is not an export name (\(ExportName.rule)) or *" }
        return nil
    }

    public static func matches(_ pattern: String, name: String) -> Bool {
        if pattern == name { return true }
        if pattern.hasPrefix("*.") {
            // "*.on_login": a module id (no dot) before exactly that export name.
            let suffix = pattern.dropFirst() // ".on_login"
            guard name.hasSuffix(suffix) else { return false }
            let id = name.dropLast(suffix.count)
            return !id.isEmpty && !id.contains(".")
        }
        guard pattern.hasSuffix(".*") else { return false }
        let prefix = pattern.dropLast() // "main."
        return name.hasPrefix(prefix) && !name.dropFirst(prefix.count).contains(".") && name.count > prefix.count
    }

    public static func covers(_ granted: String, _ requested: String) -> Bool {
        granted == requested || (!requested.hasSuffix(".*") && !requested.hasPrefix("*.") && matches(granted, name: requested))
    }

    static func describe(_ pattern: String) -> String {
        if pattern.hasPrefix("*.") { return "\(pattern.dropFirst(2)) of any module (\(pattern))" }
        return pattern.hasSuffix(".*") ? "any export of \(pattern.dropLast(2)) (\(pattern))" : pattern
    }
}
