/// The type of an export's parameter or result (den_module.h, DEN_EXPORT_SIGNATURE).
public enum ExportType: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    case i64, f64, bool, string, void

    public var description: String { rawValue }

    /// What a value of this type looks like, for messages ("a whole number").
    public var expected: String {
        switch self {
        case .i64: "a whole number from -9223372036854775808 to 9223372036854775807"
        case .f64: "a finite number"
        case .bool: "true or false"
        case .string: "a UTF-8 string without NUL"
        case .void: "nothing"
        }
    }
}

/// A parsed export signature, e.g. `(f64 amount, string from, string to) -> string`. Parsed the
/// same way by DenKit (before registering) and by the host (at registration), so the two agree.
public struct ExportSignature: Sendable, Equatable, CustomStringConvertible {
    public struct Parameter: Sendable, Equatable {
        public var type: ExportType
        public var name: String?

        public init(type: ExportType, name: String? = nil) {
            self.type = type
            self.name = name
        }
    }

    public var parameters: [Parameter]
    public var result: ExportType

    public static let maxParameters = 16
    public static let maxBytes = 512
    public static let maxParameterNameLength = 32
    public static let notation = "(type name, ...) -> result, with types i64, f64, bool, string (and void as a result), e.g. \"(f64 amount, string from) -> string\""

    /// The canonical text: `(f64 amount, string from) -> string`.
    public var description: String {
        let list = parameters.map { parameter -> String in
            guard let name = parameter.name else { return parameter.type.rawValue }
            return "\(parameter.type.rawValue) \(name)"
        }
        return "(\(list.joined(separator: ", "))) -> \(result.rawValue)"
    }

    public init(parameters: [Parameter], result: ExportType) {
        self.parameters = parameters
        self.result = result
    }

    /// Parses the notation; the error says what is wrong and what is allowed.
    public init(parsing text: String) throws(ExportSignatureError) {
        func fail(_ problem: String) -> ExportSignatureError { ExportSignatureError(signature: text, problem: problem) }
        guard text.utf8.count <= Self.maxBytes else { throw fail("it is longer than \(Self.maxBytes) bytes") }
        let trimmed = text.trimmingSpaces()
        guard trimmed.hasPrefix("(") else { throw fail("it must start with '('") }
        guard let close = trimmed.firstIndex(of: ")") else { throw fail("the parameter list is not closed with ')'") }
        let inside = trimmed[trimmed.index(after: trimmed.startIndex)..<close]
        let rest = trimmed[trimmed.index(after: close)...].trimmingSpaces()
        guard rest.hasPrefix("->") else { throw fail("'->' and a result type must follow the parameter list") }
        let resultText = String(rest.dropFirst(2)).trimmingSpaces()
        guard let result = ExportType(rawValue: resultText) else {
            throw fail("the result type '\(resultText)' is not one of i64, f64, bool, string, void")
        }
        var parameters: [Parameter] = []
        let list = inside.trimmingSpaces()
        if !list.isEmpty {
            for (index, item) in list.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
                let words = item.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                guard !words.isEmpty else { throw fail("parameter \(index + 1) is empty") }
                guard words.count <= 2 else { throw fail("parameter \(index + 1) '\(item.trimmingSpaces())' must be a type and at most one name") }
                guard let type = ExportType(rawValue: words[0]), type != .void else {
                    throw fail("parameter \(index + 1) has the type '\(words[0])'; a parameter is i64, f64, bool or string")
                }
                let name = words.count == 2 ? words[1] : nil
                if let name, !Self.isValidParameterName(name) {
                    throw fail("parameter name '\(name)' must be 1-\(Self.maxParameterNameLength) characters of a-z, 0-9 and '_', starting with a letter")
                }
                parameters.append(Parameter(type: type, name: name))
            }
        }
        guard parameters.count <= Self.maxParameters else { throw fail("it has \(parameters.count) parameters; at most \(Self.maxParameters)") }
        self.init(parameters: parameters, result: result)
    }

    static func isValidParameterName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...maxParameterNameLength).contains(bytes.count), (0x61...0x7A).contains(bytes[0]) else { return false }
        return bytes.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }
}

/// A signature the notation refuses.
public struct ExportSignatureError: Error, Sendable, Equatable, CustomStringConvertible {
    public var signature: String
    public var problem: String

    public var description: String {
        // A long signature is cut, so the problem itself is always in the message.
        let shown = signature.count > 100 ? signature.prefix(99) + "…" : signature
        return "signature '\(shown)' is malformed: \(problem) (notation: \(ExportSignature.notation))"
    }
}

/// The rules for an export's function name (the host prefixes the module id).
public enum ExportName {
    public static let maxLength = 64
    public static let rule = "1-64 characters of a-z, 0-9 and '_', starting with a letter"

    public static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...maxLength).contains(bytes.count), (0x61...0x7A).contains(bytes[0]) else { return false }
        return bytes.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
