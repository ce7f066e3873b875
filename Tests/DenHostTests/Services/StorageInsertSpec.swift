import DenHost
import DenKit
import DenSQLiteEngine
import DenTestSupport
import Foundation
import Testing

/// Runs `body` with a `StorageService` over a fresh engine of `kind`, then cleans up.
private func withInsertStorage(_ kind: StorageEngineKind, _ body: (StorageService) throws -> Void) throws {
    let (engine, folder) = try kind.make()
    defer {
        (engine as? SQLiteStorageEngine)?.close()
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }
    try body(StorageService(engine: engine))
}

private func call(_ service: StorageService, _ json: String, _ module: String = "jogs") throws(ServiceFailure) -> String {
    try ServiceTestSupport.call(service, "storage.transaction", json, as: module)
}

/// `{"operations": [], "insert": {...}}` for a record `{"id":<id>,"km":5}` under `user/a/jogs/<id>`.
private let insertJog = #"{"operations":[],"insert":{"counter":"user/a/jogs-last-id","prefix":"user/a/jogs/","before":"{\"id\":","after":",\"km\":5}"}}"#

@Suite("storage.transaction with an insert: one call, a fresh id, all or nothing")
struct StorageInsertSpec {
    @Test("each insert takes the next id and stores the record with the id written into it", arguments: StorageEngineKind.allCases)
    func freshIDs(kind: StorageEngineKind) throws {
        try withInsertStorage(kind) { (storage) throws in
            #expect(try call(storage, insertJog) == #"{"inserted":1}"#)
            #expect(try call(storage, insertJog) == #"{"inserted":2}"#)
            #expect(try storage.engine.get(namespace: "jogs", key: "user/a/jogs/2") == #"{"id":2,"km":5}"#)
            #expect(try storage.engine.get(namespace: "jogs", key: "user/a/jogs-last-id") == "2")
            // Another module's counter and records are its own.
            #expect(try call(storage, insertJog, "main") == #"{"inserted":1}"#)
        }
    }

    @Test("a counter reset behind existing records steps over them instead of overwriting one", arguments: StorageEngineKind.allCases)
    func stepsOverTakenIDs(kind: StorageEngineKind) throws {
        try withInsertStorage(kind) { (storage) throws in
            try storage.engine.set(namespace: "jogs", key: "user/a/jogs/1", value: "mine")
            try storage.engine.set(namespace: "jogs", key: "user/a/jogs/2", value: "mine too")
            try storage.engine.set(namespace: "jogs", key: "user/a/jogs-last-id", value: "-1")
            #expect(try call(storage, insertJog) == #"{"inserted":3}"#)
            #expect(try storage.engine.get(namespace: "jogs", key: "user/a/jogs/1") == "mine")
            #expect(try storage.engine.get(namespace: "jogs", key: "user/a/jogs/2") == "mine too")
            #expect(try storage.engine.get(namespace: "jogs", key: "user/a/jogs-last-id") == "3")
        }
    }

    @Test("a counter that is not a whole number refuses the insert and writes nothing", arguments: StorageEngineKind.allCases)
    func badCounter(kind: StorageEngineKind) throws {
        try withInsertStorage(kind) { (storage) throws in
            try storage.engine.set(namespace: "jogs", key: "user/a/jogs-last-id", value: "seven")
            #expect {
                try call(storage, insertJog)
            } throws: { error in
                (error as? ServiceFailure)?.kind == .invalidArgument
                    && (error as? ServiceFailure)?.message.contains("nothing was written") == true
            }
            #expect(try storage.engine.get(namespace: "jogs", key: "user/a/jogs-last-id") == "seven")
            #expect(try storage.engine.list(namespace: "jogs", prefix: "user/a/jogs/").isEmpty)
        }
    }

    @Test("a counter hopelessly behind its records is reported, and nothing is written", arguments: StorageEngineKind.allCases)
    func noFreeID(kind: StorageEngineKind) throws {
        try withInsertStorage(kind) { (storage) throws in
            try storage.engine.apply(namespace: "jogs", operations: (1...StorageInsert.maxTakenIDs).map {
                .set(key: "user/a/jogs/\($0)", value: "taken")
            })
            #expect {
                try call(storage, insertJog)
            } throws: { error in
                (error as? ServiceFailure)?.message.contains("no free id within \(StorageInsert.maxTakenIDs)") == true
            }
            #expect(try storage.engine.get(namespace: "jogs", key: "user/a/jogs-last-id") == nil, "the counter was not advanced")
        }
    }

    @Test("an insert refuses company, a counter inside its own prefix, and an empty prefix, writing nothing", arguments: [
        (#"{"operations":[{"op":"set","key":"x","value":"1"}],"insert":{"counter":"n","prefix":"r/","before":"","after":""}}"#,
         "an insert is a transaction of its own"),
        (#"{"operations":[],"insert":{"counter":"r/n","prefix":"r/","before":"","after":""}}"#, "starts with the prefix"),
        (#"{"operations":[],"insert":{"counter":"n","prefix":"","before":"","after":""}}"#, "the prefix is empty"),
        (#"{"operations":[],"insert":{"counter":"","prefix":"r/","before":"","after":""}}"#, "the key is empty"),
    ])
    func refused(json: String, expected: String) throws {
        try withInsertStorage(.inMemory) { (storage) throws in
            #expect {
                try call(storage, json)
            } throws: { error in
                (error as? ServiceFailure)?.kind == .invalidArgument && (error as? ServiceFailure)?.message.contains(expected) == true
            }
            #expect(try storage.engine.namespaces().isEmpty, "nothing was written")
        }
    }

    @Test("a transaction without an insert still answers {}")
    func plainTransaction() throws {
        try withInsertStorage(.inMemory) { (storage) throws in
            #expect(try call(storage, #"{"operations":[{"op":"set","key":"k","value":"v"}]}"#) == "{}")
        }
    }
}
