#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The JSON documents of the `storage.*` host services (docs/ABI.md). Both sides use these types:
// the module's `HostKeyValueStore` encodes the requests, the host's `StorageService` decodes them.
//
//   storage.get          {"key": "k"}                          -> {"value": "v"} or {"value": null}
//   storage.set          {"key": "k", "value": "v"}            -> {}
//   storage.delete       {"key": "k"}                          -> {"deleted": true}
//   storage.list         {"prefix": "p"}                       -> {"entries": [{"key": "k", "value": "v"}]}
//   storage.transaction  {"operations": [{"op": "set", "key": "k", "value": "v"},
//                                        {"op": "delete", "key": "k"}]}  -> {}
//   storage.increment    {"key": "k"}                          -> {"value": 42}
//
// Keys are namespaced by the calling module's id on the host: a module only ever sees its own.

/// Limits every storage implementation enforces, with the messages they give.
public enum StorageLimits {
    /// A key is 1...512 bytes of UTF-8 and contains no NUL character.
    public static let maxKeyBytes = 512
    /// A value is at most 1 MiB of UTF-8.
    public static let maxValueBytes = 1 << 20

    /// Why `key` is not acceptable, or nil when it is.
    public static func problem(withKey key: String) -> String? {
        if key.isEmpty {
            return "the key is empty; use a non-empty key such as \"settings\" or \"jogs/42\""
        }
        let bytes = key.utf8.count
        if bytes > maxKeyBytes {
            return "the key '\(key.prefix(40))…' is \(bytes) bytes long; keys are at most \(maxKeyBytes) bytes of UTF-8 — use a shorter key"
        }
        if key.utf8.contains(0) {
            return "the key '\(key.split(separator: "\u{0}", omittingEmptySubsequences: false).joined(separator: "\\u0000"))' contains a NUL character (\\u0000); remove it"
        }
        return nil
    }

    /// Why `value` (stored under `key`) is not acceptable, or nil when it is.
    public static func problem(withValue value: String, forKey key: String) -> String? {
        let bytes = value.utf8.count
        if bytes > maxValueBytes {
            return "the value for key '\(key.prefix(80))' is \(bytes) bytes long; values are at most \(maxValueBytes) bytes (1 MiB) — split it over several keys"
        }
        return nil
    }

    /// Why `operation` is not acceptable, or nil when it is.
    public static func problem(with operation: StorageOperation) -> String? {
        switch operation {
        case .set(let key, let value):
            problem(withKey: key) ?? problem(withValue: value, forKey: key)
        case .delete(let key):
            problem(withKey: key)
        }
    }

    /// Why `insert` would be refused, or nil: its counter must be a valid key, and its record,
    /// with the longest id, a valid key and value.
    public static func problem(with insert: StorageInsert) -> String? {
        if let problem = problem(withKey: insert.counter) { return "insert counter: \(problem)" }
        guard !insert.prefix.isEmpty else { return "insert prefix: the prefix is empty; give the records a prefix of their own" }
        let longest = String(Int.max)
        if let problem = problem(withKey: insert.prefix + longest) { return "insert prefix: \(problem)" }
        if insert.counter.hasPrefix(insert.prefix) {
            return "insert counter: '\(insert.counter)' starts with the prefix '\(insert.prefix)', so a record could overwrite it; keep the counter outside the prefix"
        }
        return problem(withValue: insert.before + longest + insert.after, forKey: insert.prefix + longest)
    }
}

/// One key and its value.
public struct StorageEntry: Codable, Sendable, Hashable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    /// Byte-wise UTF-8 order: the order of SQLite's default collation, which every storage
    /// implementation uses so listings agree.
    public static func keyPrecedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}

/// One step of a `storage.transaction`: `{"op": "set", "key": k, "value": v}` or
/// `{"op": "delete", "key": k}`.
public enum StorageOperation: Codable, Sendable, Hashable {
    case set(key: String, value: String)
    case delete(key: String)

    public var key: String {
        switch self {
        case .set(let key, _), .delete(let key): key
        }
    }

    private enum CodingKeys: String, CodingKey { case op, key, value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let op = try container.decode(String.self, forKey: .op)
        let key = try container.decode(String.self, forKey: .key)
        switch op {
        case "set":
            self = .set(key: key, value: try container.decode(String.self, forKey: .value))
        case "delete":
            self = .delete(key: key)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .op, in: container, debugDescription: "unknown op '\(op)'; expected \"set\" or \"delete\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .set(let key, let value):
            try container.encode("set", forKey: .op)
            try container.encode(key, forKey: .key)
            try container.encode(value, forKey: .value)
        case .delete(let key):
            try container.encode("delete", forKey: .op)
            try container.encode(key, forKey: .key)
        }
    }
}

/// `storage.get` request.
public struct StorageGetRequest: Codable, Sendable, Equatable {
    public static let operation = "storage.get"
    public var key: String

    public init(key: String) {
        self.key = key
    }
}

/// `storage.get` answer: `{"value": null}` when the key is absent.
public struct StorageGetAnswer: Codable, Sendable, Equatable {
    public var value: String?

    public init(value: String?) {
        self.value = value
    }

    private enum CodingKeys: String, CodingKey { case value }

    public init(from decoder: any Decoder) throws {
        value = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .value)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value) // writes an explicit null
    }
}

/// `storage.set` request; the answer is `{}`.
public struct StorageSetRequest: Codable, Sendable, Equatable {
    public static let operation = "storage.set"
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// `storage.delete` request.
public struct StorageDeleteRequest: Codable, Sendable, Equatable {
    public static let operation = "storage.delete"
    public var key: String

    public init(key: String) {
        self.key = key
    }
}

/// `storage.delete` answer: whether the key existed.
public struct StorageDeleteAnswer: Codable, Sendable, Equatable {
    public var deleted: Bool

    public init(deleted: Bool) {
        self.deleted = deleted
    }
}

/// `storage.list` request; a missing or empty prefix lists every key of the module.
public struct StorageListRequest: Codable, Sendable, Equatable {
    public static let operation = "storage.list"
    public var prefix: String

    public init(prefix: String = "") {
        self.prefix = prefix
    }

    private enum CodingKeys: String, CodingKey { case prefix }

    public init(from decoder: any Decoder) throws {
        prefix = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .prefix) ?? ""
    }
}

/// `storage.list` answer: the entries whose key starts with the prefix, sorted by key (byte-wise
/// UTF-8 order).
public struct StorageListAnswer: Codable, Sendable, Equatable {
    public var entries: [StorageEntry]

    public init(entries: [StorageEntry]) {
        self.entries = entries
    }
}

/// `storage.transaction` request: applied all or nothing, in order; the answer is `{}`. With
/// `insert` instead of operations (`"operations": []`), it stores one new record under a fresh
/// id in one atomic step and answers `{"inserted": id}`.
public struct StorageTransactionRequest: Codable, Sendable, Equatable {
    public static let operation = "storage.transaction"
    public var operations: [StorageOperation]
    public var insert: StorageInsert?

    public init(operations: [StorageOperation], insert: StorageInsert? = nil) {
        self.operations = operations
        self.insert = insert
    }
}

/// A record stored under a fresh id, all in one step: the host adds 1 to the counter under
/// `counter` (as `storage.increment`) until the id is positive and `prefix` + the id names no key, and stores
/// `before` + the id in decimal + `after` there. So a record that holds its own id (a JSON
/// `"id": 7`) is written with one call, and two callers never get the same id.
public struct StorageInsert: Codable, Sendable, Equatable {
    public var counter: String
    public var prefix: String
    public var before: String
    public var after: String

    public init(counter: String, prefix: String, before: String, after: String) {
        self.counter = counter
        self.prefix = prefix
        self.before = before
        self.after = after
    }

    /// How many taken ids an insert steps over before it gives up: a counter far behind its
    /// records was reset by hand, and is better reported than walked.
    public static let maxTakenIDs = 100

    /// The key and value for `id`.
    public func key(for id: Int) -> String { prefix + String(id) }
    public func value(for id: Int) -> String { before + String(id) + after }
}

/// `storage.transaction` answer: `{}`, or `{"inserted": id}` for an insert.
public struct StorageTransactionAnswer: Codable, Sendable, Equatable {
    public var inserted: Int?

    public init(inserted: Int? = nil) {
        self.inserted = inserted
    }
}

/// `storage.increment` request: adds 1 to the whole number stored under `key` (an absent key
/// counts as 0) and stores the result, in one atomic step. Two callers never get the same value,
/// whatever process or thread they run on, so it hands out ids.
public struct StorageIncrementRequest: Codable, Sendable, Equatable {
    public static let operation = "storage.increment"
    public var key: String

    public init(key: String) {
        self.key = key
    }
}

/// `storage.increment` answer: the value now stored under the key.
public struct StorageIncrementAnswer: Codable, Sendable, Equatable {
    public var value: Int

    public init(value: Int) {
        self.value = value
    }
}

/// The rule every storage implementation follows for `storage.increment`, with its messages.
public enum StorageCounter {
    /// The value that follows `stored` (the text under `key`, nil when absent), or why there is
    /// none: the text must be a decimal whole number (`-?[0-9]+`, as increment writes it) below
    /// `Int.max`.
    public static func next(after stored: String?, forKey key: String) -> Result<Int, StorageCounterProblem> {
        guard let stored else { return .success(1) }
        let digits = stored.hasPrefix("-") ? stored.utf8.dropFirst() : stored.utf8[...]
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(stored) else {
            return .failure(StorageCounterProblem(description:
                "the value under key '\(key.prefix(80))' is '\(stored.prefix(40))', not a whole number; only a key that holds a decimal whole number (as storage.increment writes it) can be incremented — use another key for the counter"))
        }
        guard value < Int.max else {
            return .failure(StorageCounterProblem(description:
                "the value under key '\(key.prefix(80))' is \(value), the largest whole number a counter can hold; it cannot be incremented"))
        }
        return .success(value + 1)
    }
}

/// Why a key cannot be incremented; the message says what is stored and what to do.
public struct StorageCounterProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}
