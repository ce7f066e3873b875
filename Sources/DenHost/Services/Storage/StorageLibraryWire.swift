import DenKit
import FoundationEssentials

// What the host and `libDenSQLiteStorage.so` exchange: one `StorageEngine` call as a JSON
// document each way. SQLite storage is a library of its own, loaded on the first storage call,
// because GRDB imports Foundation, and linking it would load Foundation and ICU into every `den`
// start (docs/PERFORMANCE.md); only C types cross (DESIGN: never Swift types between images).

/// The library's file, expected beside `den` (in a build folder) or in `<prefix>/lib/den`.
public let storageLibraryFile = "libDenSQLiteStorage.so"

/// `void *den_storage_library_open(const uint8_t *folder, size_t length,
///     void (*report)(void *context, const uint8_t *text, size_t length), void *context)`:
/// an engine for the data folder (UTF-8 path), opened on its first call; `report` hears each
/// "waiting for another process" notice. NULL only without a folder; the engine and the report
/// context stay valid until `den_storage_library_close`.
public let storageLibraryOpenSymbol = "den_storage_library_open"

/// `int32_t den_storage_library_call(void *engine, const uint8_t *call, size_t length, den_owned *answer)`:
/// performs one `StorageLibraryCall` and writes its `StorageLibraryAnswer`; anything but DEN_OK
/// means the call document could not be read.
public let storageLibraryCallSymbol = "den_storage_library_call"

/// `void den_storage_library_close(void *engine)`: closes the engine's database (checkpointing its
/// log) and frees it; the report function is not called again.
public let storageLibraryCloseSymbol = "den_storage_library_close"

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
    case failed(kind: ServiceFailure.Kind, message: String)
}
