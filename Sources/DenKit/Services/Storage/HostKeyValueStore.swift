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
}
