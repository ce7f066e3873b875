import DenHost
import DenKit
import DenSQLiteEngine
import Foundation
import Testing

/// `applyUnsynced`, the write den serve saves browser sessions with: it may skip waiting for the
/// disk, but it is still one all-or-nothing transaction that every later read sees.
@Suite("Unsynced writes: all or nothing, like any write")
struct StorageUnsyncedWriteSpec {
    @Test("an unsynced write is read back by the same engine and by the next one on the same data", arguments: StorageEngineKind.allCases)
    func readBack(kind: StorageEngineKind) throws {
        let (engine, folder) = try kind.make()
        defer { if let folder { ServiceTestSupport.remove(folder) } }
        try engine.set(namespace: "@den.web.sessions", key: "old", value: "gone soon")
        try engine.applyUnsynced(namespace: "@den.web.sessions", operations: [
            .set(key: "session/a", value: "{\"screens\":1}"), .set(key: "revision/a", value: "r1"), .delete(key: "old"),
        ])
        #expect(try engine.list(namespace: "@den.web.sessions", prefix: "") == [
            StorageEntry(key: "revision/a", value: "r1"), StorageEntry(key: "session/a", value: "{\"screens\":1}"),
        ])
        // A synced write after it keeps both (SQLite checkpoints the unsynced one with it).
        try engine.set(namespace: "jogs", key: "count", value: "3")
        #expect(try engine.get(namespace: "@den.web.sessions", key: "revision/a") == "r1")
        if kind == .sqlite, let folder {
            let again = SQLiteStorageEngine(directory: folder.appendingPathComponent("data"))
            defer { again.close() }
            #expect(try again.get(namespace: "@den.web.sessions", key: "session/a") == "{\"screens\":1}")
        }
    }

    @Test("an unsynced write with a refused operation in the middle writes nothing", arguments: StorageEngineKind.allCases)
    func allOrNothing(kind: StorageEngineKind) throws {
        let (engine, folder) = try kind.make()
        defer { if let folder { ServiceTestSupport.remove(folder) } }
        try engine.set(namespace: "@den.web.sessions", key: "session/a", value: "1")
        #expect(throws: ServiceFailure.self) {
            try engine.applyUnsynced(namespace: "@den.web.sessions", operations: [
                .set(key: "session/a", value: "2"), .set(key: "", value: "x"), .delete(key: "session/a"),
            ])
        }
        #expect(try engine.list(namespace: "@den.web.sessions", prefix: "") == [StorageEntry(key: "session/a", value: "1")])
    }
}
