import DenKit
import FoundationEssentials

// The documents den and `libDenSQLiteStorage.so` exchange through `den_storage_library_call`
// (its C type: den_libraries.h): one `StorageEngine` call as a JSON document each way. SQLite
// storage is a library of its own, loaded on the first storage call, because GRDB imports Foundation, and linking it would load Foundation and ICU into every `den`
// start (docs/PERFORMANCE.md); only C types cross (DESIGN: never Swift types between images).

/// One `StorageEngine` method with its arguments.
public enum StorageLibraryCall: Codable, Sendable, Equatable {
    case get(namespace: String, key: String)
    case set(namespace: String, key: String, value: String)
    case delete(namespace: String, key: String)
    case list(namespace: String, prefix: String)
    case apply(namespace: String, operations: [StorageOperation])
    case increment(namespace: String, key: String)
    case namespaces
    case applyAcross([NamespacedOperation])
    case insert(namespace: String, insert: StorageInsert)
    case applyUnsynced(namespace: String, operations: [StorageOperation])
    case applyUnsyncedIf(namespace: String, operations: [StorageOperation], key: String, expected: String)
    case foreignChanges

    /// Runs the call on `engine`; a failure is an answer too.
    public func perform(on engine: any StorageEngine) -> StorageLibraryAnswer {
        do throws(ServiceFailure) {
            switch self {
            case .get(let namespace, let key): return .value(try engine.get(namespace: namespace, key: key))
            case .set(let namespace, let key, let value):
                try engine.set(namespace: namespace, key: key, value: value)
                return .done
            case .delete(let namespace, let key): return .existed(try engine.delete(namespace: namespace, key: key))
            case .list(let namespace, let prefix): return .entries(try engine.list(namespace: namespace, prefix: prefix))
            case .apply(let namespace, let operations):
                try engine.apply(namespace: namespace, operations: operations)
                return .done
            case .increment(let namespace, let key): return .count(try engine.increment(namespace: namespace, key: key))
            case .namespaces: return .names(try engine.namespaces())
            case .applyAcross(let operations):
                try engine.apply(across: operations)
                return .done
            case .insert(let namespace, let insert): return .count(try engine.insert(namespace: namespace, insert))
            case .applyUnsynced(let namespace, let operations):
                try engine.applyUnsynced(namespace: namespace, operations: operations)
                return .done
            case .applyUnsyncedIf(let namespace, let operations, let key, let expected):
                return .existed(try engine.applyUnsynced(namespace: namespace, operations: operations, ifKey: key, holds: expected))
            case .foreignChanges:
                return .changes(try engine.foreignChanges())
            }
        } catch {
            return .failed(kind: error.kind, message: error.message)
        }
    }
}

/// What a `StorageLibraryCall` returned.
public enum StorageLibraryAnswer: Codable, Sendable, Equatable {
    case value(String?)
    case done
    case existed(Bool)
    case entries([StorageEntry])
    case count(Int)
    case names([String])
    case changes(UInt64?)
    case failed(kind: ServiceFailure.Kind, message: String)
}
