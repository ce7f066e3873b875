#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The easy way to keep a screen's state across a hot swap: declare it as a `Codable` value with
/// a state version, and DenKit does `snapshot` and `restore` (docs/HOT_SWAP.md).
///
/// ```swift
/// struct CounterState: Codable { var count: Int }
/// let state = CodableState(version: 1, save: { CounterState(count: presenter.count) },
///                          load: { presenter.count = $0.count })
/// return VIPERInstance(view: view, navigation: navigation, state: state)
/// ```
///
/// The bytes are `{"v":<version>,"state":<the value>}`. A restore refuses (throws) bytes of a
/// newer version, bytes that do not decode, and an older version unless `migrate` turns it into
/// the current value; `load` may throw too, when the new version's rules refuse the value. The
/// host then builds that screen fresh and says so; nothing is half-applied as long as `load`
/// checks everything before it changes anything.
public final class CodableState<State: Codable>: ModuleStateCodec {
    public let version: Int
    private let save: () throws -> State
    private let load: (State) throws -> Void
    private let migrate: ((_ version: Int, _ state: Data) throws -> State)?

    /// - Parameters:
    ///   - version: bump it when `State` changes in a way old bytes no longer decode to.
    ///   - save: the state now (usually read from the presenter).
    ///   - load: applies a restored state (check it fully first, then apply).
    ///   - migrate: turns an older version's `state` JSON into the current value; nil refuses them.
    ///     A document without a `state` key (a format the module wrote before it used
    ///     `CodableState`, with its version in `v`) is passed whole.
    public init(version: Int, save: @escaping () throws -> State, load: @escaping (State) throws -> Void,
                migrate: ((_ version: Int, _ state: Data) throws -> State)? = nil) {
        self.version = version
        self.save = save
        self.load = load
        self.migrate = migrate
    }

    private struct Envelope<Value: Codable>: Codable {
        var v: Int
        var state: Value
    }

    /// An older document's state, if it has one, whatever its shape (an explicit `null` too).
    private struct OldDocument: Decodable {
        var state: AnyJSON?

        private enum CodingKeys: String, CodingKey { case state }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard container.contains(.state) else { state = nil; return }
            state = try container.decodeNil(forKey: .state) ? .null : container.decode(AnyJSON.self, forKey: .state)
        }
    }

    /// Only the version, to decide how to read the rest.
    private struct Header: Decodable {
        var v: Int
    }

    public func snapshot() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Envelope(v: version, state: try save()))
    }

    public func restore(_ data: Data) throws {
        let header: Header
        do { header = try JSONDecoder().decode(Header.self, from: data) } catch {
            throw ModuleError.invalidParameter("the saved state is not a DenKit state document ({\"v\":…,\"state\":…}): \(error)")
        }
        let value: State
        if header.v == version {
            do { value = try JSONDecoder().decode(Envelope<State>.self, from: data).state } catch {
                throw ModuleError.invalidParameter("the saved state (version \(header.v)) does not decode: \(error)")
            }
        } else if header.v < version, let migrate {
            // The old state's own JSON, whatever its shape, for the module's migration; a document
            // without a "state" (a module's own format from before CodableState) goes as it is.
            let old = try JSONDecoder().decode(OldDocument.self, from: data)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            value = try migrate(header.v, try old.state.map { try encoder.encode($0) } ?? data)
        } else {
            throw ModuleError.invalidParameter("the saved state is version \(header.v); this version of the module reads version \(version)\(header.v < version ? " and has no migration from it" : "")")
        }
        try load(value)
    }
}

/// Any JSON value, to carry an older state document through to a migration without knowing its
/// shape (FoundationEssentials has no `JSONSerialization`). Whole numbers stay exact from
/// Int64.min to UInt64.max; beyond that, and with a fraction, they are Doubles.
private enum AnyJSON: Codable {
    case null, bool(Bool), integer(Int64), unsigned(UInt64), number(Double), string(String), array([AnyJSON]), object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(UInt64.self) { self = .unsigned(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([AnyJSON].self) { self = .array(value) }
        else { self = .object(try container.decode([String: AnyJSON].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .unsigned(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
