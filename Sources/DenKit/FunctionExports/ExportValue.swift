#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value passed to or returned by an export. In JSON (`exports.call`) it is a plain JSON value:
/// a number, true/false or a string; `void` has no value and is left out.
public enum ExportValue: Sendable, Equatable, Codable, CustomStringConvertible {
    case i64(Int64)
    case f64(Double)
    case bool(Bool)
    case string(String)
    case void

    public var type: ExportType {
        switch self {
        case .i64: .i64
        case .f64: .f64
        case .bool: .bool
        case .string: .string
        case .void: .void
        }
    }

    /// The value as `den call` prints it: `42`, `0.5`, `true`, the string itself; "" for void.
    public var description: String {
        switch self {
        case .i64(let value): String(value)
        case .f64(let value): Self.format(value)
        case .bool(let value): value ? "true" : "false"
        case .string(let value): value
        case .void: ""
        }
    }

    /// Shortest round-trip text, without a trailing ".0" for whole values ("2", "0.1", "1e-07").
    static func format(_ value: Double) -> String {
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // A JSON number without fraction or exponent is an i64 when it fits; any other number is
        // an f64; the host converts an i64 to f64 where the signature asks for one.
        if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .i64(value) }
        else if let value = try? container.decode(Double.self) { self = .f64(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "an export argument is a number, true, false or a string")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .i64(let value): try container.encode(value)
        case .f64(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .void: try container.encode([String: String]()) // never sent: void results are left out
        }
    }
}
