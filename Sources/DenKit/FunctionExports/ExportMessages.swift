/// `exports.call`: calls `<module>.<function>` with arguments in the order of its signature.
public struct ExportCallRequest: Codable, Sendable, Equatable {
    public static let operation = "exports.call"
    public var name: String
    public var arguments: [ExportValue]

    public init(name: String, arguments: [ExportValue]) {
        self.name = name
        self.arguments = arguments
    }
}

/// The answer of `exports.call`: the result's type and, unless it is `void`, its value.
public struct ExportCallAnswer: Codable, Sendable, Equatable {
    public var type: String
    public var result: ExportValue?

    public init(result: ExportValue) {
        self.type = result.type.rawValue
        self.result = result == .void ? nil : result
    }

    /// The result as a value (`.void` when the answer carries none).
    public var value: ExportValue { result ?? .void }
}

/// `exports.list` (request `{}`): every export of every active module, sorted by name.
public struct ExportListAnswer: Codable, Sendable, Equatable {
    public static let operation = "exports.list"
    public var exports: [ExportSummary]

    public init(exports: [ExportSummary]) {
        self.exports = exports
    }
}

/// One export as `den exports` and `exports.list` show it.
public struct ExportSummary: Codable, Sendable, Equatable {
    /// `<module>.<function>`, e.g. `main.convert`.
    public var name: String
    public var module: String
    /// The canonical signature text, e.g. `(f64 amount, string from, string to) -> string`.
    public var signature: String
    public var summary: String

    public init(name: String, module: String, signature: String, summary: String) {
        self.name = name
        self.module = module
        self.signature = signature
        self.summary = summary
    }
}
