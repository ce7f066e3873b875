import DenLibraryClients
import DenLibraryContracts
import DenKit
import FoundationEssentials

/// Host service `storage.*`: a durable, transactional key-value store per module (see
/// `StorageGetRequest` ... `StorageTransactionRequest` in DenKit for the JSON).
///
/// The namespace is always the caller's module id, taken from `ServiceCaller`, never from the
/// request: a module cannot name, read or change another module's keys. Requests are checked
/// against `StorageLimits` before the engine sees them; a transaction with one bad operation is
/// refused whole.
package struct StorageService: HostService {
    package let engine: any StorageEngine

    package var operations: [String] {
        [StorageGetRequest.operation, StorageSetRequest.operation, StorageDeleteRequest.operation,
         StorageListRequest.operation, StorageTransactionRequest.operation, StorageIncrementRequest.operation]
    }

    package init(engine: any StorageEngine) {
        self.engine = engine
    }

    /// SQLite storage in `<dataDirectory>/storage.sqlite`, opened on first use.
    package init(dataDirectory: URL) {
        self.init(engine: LibraryStorageEngine(directory: dataDirectory))
    }

    package func handle(_ operation: String, request: Data, caller: ServiceCaller) throws(ServiceFailure) -> Data {
        let namespace = caller.moduleID
        guard !namespace.isEmpty else {
            throw ServiceFailure(.internalError, "\(operation): the calling module has no id, so its storage cannot be found")
        }
        switch operation {
        case StorageGetRequest.operation:
            let request = try decode(StorageGetRequest.self, request, for: operation)
            try check(operation, StorageLimits.problem(withKey: request.key))
            return try encode(StorageGetAnswer(value: try engine.get(namespace: namespace, key: request.key)), for: operation)

        case StorageSetRequest.operation:
            let request = try decode(StorageSetRequest.self, request, for: operation)
            try check(operation, StorageLimits.problem(with: .set(key: request.key, value: request.value)))
            try engine.set(namespace: namespace, key: request.key, value: request.value)
            return try encode(Empty(), for: operation)

        case StorageDeleteRequest.operation:
            let request = try decode(StorageDeleteRequest.self, request, for: operation)
            try check(operation, StorageLimits.problem(withKey: request.key))
            let deleted = try engine.delete(namespace: namespace, key: request.key)
            return try encode(StorageDeleteAnswer(deleted: deleted), for: operation)

        case StorageListRequest.operation:
            let request = try decode(StorageListRequest.self, request, for: operation)
            if request.prefix.utf8.count > StorageLimits.maxKeyBytes {
                throw .invalid("\(operation): the prefix is \(request.prefix.utf8.count) bytes long, longer than any key (at most \(StorageLimits.maxKeyBytes) bytes); use a shorter prefix")
            }
            let entries = try engine.list(namespace: namespace, prefix: request.prefix)
            return try encode(StorageListAnswer(entries: entries), for: operation)

        case StorageTransactionRequest.operation:
            let request = try decode(StorageTransactionRequest.self, request, for: operation)
            if let insert = request.insert {
                guard request.operations.isEmpty else {
                    throw .invalid("\(operation): an insert is a transaction of its own: send it with \"operations\": [] and the other operations in another transaction; nothing was written")
                }
                try check(operation, StorageLimits.problem(with: insert))
                let id = try engine.insert(namespace: namespace, insert)
                return try encode(StorageTransactionAnswer(inserted: id), for: operation)
            }
            for (index, step) in request.operations.enumerated() {
                if let problem = StorageLimits.problem(with: step) {
                    throw .invalid("\(operation): operations[\(index)]: \(problem); nothing was written")
                }
            }
            try engine.apply(namespace: namespace, operations: request.operations)
            return try encode(Empty(), for: operation)

        case StorageIncrementRequest.operation:
            let request = try decode(StorageIncrementRequest.self, request, for: operation)
            try check(operation, StorageLimits.problem(withKey: request.key))
            do {
                let value = try engine.increment(namespace: namespace, key: request.key)
                return try encode(StorageIncrementAnswer(value: value), for: operation)
            } catch where error.kind == .invalidArgument {
                throw .invalid("\(operation): \(error.message)")
            }

        default:
            throw ServiceFailure(.notFound, "unknown operation '\(operation)'; the storage service answers \(operations.joined(separator: ", "))")
        }
    }

    private func check(_ operation: String, _ problem: String?) throws(ServiceFailure) {
        if let problem { throw .invalid("\(operation): \(problem)") }
    }
}
