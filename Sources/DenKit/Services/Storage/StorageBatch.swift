#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The operations of one `KeyValueStore.write` block.
public struct StorageBatch: Sendable, Equatable {
    public private(set) var operations: [StorageOperation] = []

    public init() {}

    public mutating func set(_ value: String, forKey key: String) {
        operations.append(.set(key: key, value: value))
    }

    public mutating func delete(_ key: String) {
        operations.append(.delete(key: key))
    }
}

extension KeyValueStore {
    /// Collects the operations `body` adds to the batch and applies them all or nothing. Nothing
    /// is written when `body` throws.
    ///
    ///     try store.write { batch in
    ///         batch.set("42", forKey: "jogs/next-id")
    ///         try batch.setJSON(jog, forKey: "jogs/41")
    ///     }
    public func write(_ body: (inout StorageBatch) throws -> Void) throws {
        var batch = StorageBatch()
        try body(&batch)
        guard !batch.operations.isEmpty else { return }
        try transaction(batch.operations)
    }
}
