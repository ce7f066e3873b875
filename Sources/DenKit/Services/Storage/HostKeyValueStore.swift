#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `KeyValueStore` over the host's `storage.*` services. Errors are `HostServiceError`s whose
/// message says what was wrong (an oversize value, an unwritable data folder, ...).
public struct HostKeyValueStore: KeyValueStore {
    private let host: HostServices

    public init(_ host: HostServices) {
        self.host = host
    }

    public func get(_ key: String) throws -> String? {
        try host.call(StorageGetRequest.operation, StorageGetRequest(key: key), as: StorageGetAnswer.self).value
    }

    public func set(_ value: String, forKey key: String) throws {
        _ = try host.call(StorageSetRequest.operation, StorageSetRequest(key: key, value: value), as: Empty.self)
    }

    @discardableResult
    public func delete(_ key: String) throws -> Bool {
        try host.call(StorageDeleteRequest.operation, StorageDeleteRequest(key: key), as: StorageDeleteAnswer.self)
            .deleted
    }

    public func list(prefix: String) throws -> [StorageEntry] {
        try host.call(StorageListRequest.operation, StorageListRequest(prefix: prefix), as: StorageListAnswer.self)
            .entries
    }

    public func increment(_ key: String) throws -> Int {
        try host.call(StorageIncrementRequest.operation, StorageIncrementRequest(key: key), as: StorageIncrementAnswer.self)
            .value
    }

    public func transaction(_ operations: [StorageOperation]) throws {
        _ = try host.call(StorageTransactionRequest.operation, StorageTransactionRequest(operations: operations),
                          as: Empty.self)
    }

    /// One call: the record is made once for a stand-in id, `Int.min`, whose decimal text must
    /// appear in it exactly once; the host writes the text around it with the fresh id between.
    /// A record that does not hold its id that way, or a host from before `insert`, takes the
    /// three-call path.
    public func insert(counter: String, keyPrefix: String, record: (Int) throws -> String) throws -> Int {
        let template = try record(Int.min)
        if let split = Self.split(template, at: String(Int.min)) {
            let request = StorageTransactionRequest(
                operations: [], insert: StorageInsert(counter: counter, prefix: keyPrefix, before: split.before, after: split.after))
            if let id = try host.call(StorageTransactionRequest.operation, request, as: StorageTransactionAnswer.self).inserted {
                return id
            }
        }
        return try insertInSteps(counter: counter, keyPrefix: keyPrefix, record: record)
    }

    /// `text` around the one occurrence of `marker`; nil when it occurs never or more than once.
    static func split(_ text: String, at marker: String) -> (before: String, after: String)? {
        let bytes = Array(text.utf8), needle = Array(marker.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        var found: Int?
        for start in 0...(bytes.count - needle.count) where bytes[start..<start + needle.count].elementsEqual(needle) {
            guard found == nil else { return nil }
            found = start
        }
        guard let start = found else { return nil }
        // The marker is ASCII, so both sides are whole UTF-8.
        return (String(decoding: bytes[..<start], as: UTF8.self), String(decoding: bytes[(start + needle.count)...], as: UTF8.self))
    }
}
