import DenHost
@testable import DenSQLiteEngine
import DenKit
import Foundation
import GRDB
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("SQLite storage engine")
struct SQLiteStorageEngineSpec {
    @Test("creating the engine touches nothing; the first call creates the folder and the file")
    func lazyOpening() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        let folder = root.appendingPathComponent("nested/data")
        let engine = SQLiteStorageEngine(directory: folder)
        defer { engine.close() }
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        #expect(engine.fileURL.path == folder.appendingPathComponent("storage.sqlite").path)

        #expect(try engine.get(namespace: "jogs", key: "missing") == nil)
        #expect(FileManager.default.fileExists(atPath: engine.fileURL.path))
    }

    @Test("values survive closing and reopening the same file")
    func durability() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        do {
            let storage = StorageService(engine: SQLiteStorageEngine(directory: root))
            try ServiceTestSupport.call(storage, "storage.set", #"{"key":"jogs/1","value":"5 km"}"#)
            try ServiceTestSupport.call(storage, "storage.transaction", #"""
                {"operations":[{"op":"set","key":"jogs/2","value":"7 km"},{"op":"set","key":"next","value":"3"}]}
                """#)
            try ServiceTestSupport.call(storage, "storage.set", #"{"key":"theme","value":"dark"}"#, as: "main")
            (storage.engine as? SQLiteStorageEngine)?.close()
        }
        // A new engine, as in the next run of den.
        let reopened = SQLiteStorageEngine(directory: root)
        defer { reopened.close() }
        #expect(try reopened.list(namespace: "jogs", prefix: "") == [
            StorageEntry(key: "jogs/1", value: "5 km"), StorageEntry(key: "jogs/2", value: "7 km"),
            StorageEntry(key: "next", value: "3"),
        ])
        #expect(try reopened.get(namespace: "main", key: "theme") == "dark")
    }

    @Test("the file holds table entries(namespace, key, value, updated_at) in WAL mode")
    func schema() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        let engine = SQLiteStorageEngine(directory: root)
        try engine.set(namespace: "jogs", key: "k", value: "v")
        engine.close()

        let queue = try DatabaseQueue(path: root.appendingPathComponent("storage.sqlite").path)
        try queue.read { db in
            #expect(try db.columns(in: "entries").map(\.name) == ["namespace", "key", "value", "updated_at"])
            #expect(try db.primaryKey("entries").columns == ["namespace", "key"])
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            let row = try #require(try Row.fetchOne(db, sql: "SELECT namespace, key, value, typeof(value), updated_at FROM entries"))
            #expect(row[0] as String == "jogs")
            #expect(row[1] as String == "k")
            #expect(row[2] as String == "v")
            #expect(row[3] as String == "text")
            #expect((row[4] as String?)?.isEmpty == false)
        }
    }

    @Test("a transaction that fails inside the database is rolled back whole")
    func rollback() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        let engine = SQLiteStorageEngine(directory: root)
        defer { engine.close() }
        try engine.set(namespace: "jogs", key: "balance", value: "10")
        // The service never lets an empty key through; the table's CHECK refuses it anyway, in the
        // middle of the transaction, after two operations already ran.
        let failure = #expect(throws: ServiceFailure.self) {
            try engine.apply(namespace: "jogs", operations: [
                .set(key: "balance", value: "0"), .set(key: "new", value: "1"), .set(key: "", value: "x"),
                .delete(key: "balance"),
            ])
        }
        #expect(failure?.message.contains("nothing was written") == true)
        #expect(try engine.list(namespace: "jogs", prefix: "") == [StorageEntry(key: "balance", value: "10")])
    }

    @Test("the in-memory engine refuses the same transaction whole")
    func inMemoryRollback() throws {
        let engine = InMemoryStorageEngine()
        try engine.set(namespace: "jogs", key: "balance", value: "10")
        #expect(throws: ServiceFailure.self) {
            try engine.apply(namespace: "jogs", operations: [.set(key: "balance", value: "0"), .set(key: "", value: "x")])
        }
        #expect(try engine.list(namespace: "jogs", prefix: "") == [StorageEntry(key: "balance", value: "10")])
    }

    @Test("many threads writing at once through one engine lose nothing")
    func concurrentWrites() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        let engine = SQLiteStorageEngine(directory: root)
        defer { engine.close() }
        let failures = Counter()
        // The first calls race to open the database lazily.
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            do {
                try engine.set(namespace: "jogs", key: String(format: "k%02d", index), value: "\(index)")
                _ = try engine.list(namespace: "jogs", prefix: "k")
            } catch {
                failures.increment()
            }
        }
        #expect(failures.value == 0)
        #expect(try engine.list(namespace: "jogs", prefix: "k").count == 40)
    }

    @Test("many threads incrementing one counter get every value exactly once")
    func concurrentIncrements() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        let engine = SQLiteStorageEngine(directory: root)
        defer { engine.close() }
        let values = Collected()
        DispatchQueue.concurrentPerform(iterations: 50) { _ in
            values.add(try? engine.increment(namespace: "jogs", key: "user/alice/jogs-last-id"))
        }
        #expect(values.sorted == Array(1...50))
        #expect(try engine.get(namespace: "jogs", key: "user/alice/jogs-last-id") == "50")
    }

    @Test("two engines on one file, as two den processes, never hand out the same value")
    func incrementsAcrossConnections() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        let engines = [SQLiteStorageEngine(directory: root), SQLiteStorageEngine(directory: root)]
        defer { engines.forEach { $0.close() } }
        try engines[0].open()
        let values = Collected()
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            values.add(try? engines[index % 2].increment(namespace: "jogs", key: "counter"))
        }
        #expect(values.sorted == Array(1...40))
    }

    @Test("a data folder that cannot be created fails with a message naming it")
    func folderCannotBeCreated() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        let file = root.appendingPathComponent("plain-file")
        try Data("not a folder".utf8).write(to: file)
        let storage = StorageService(dataDirectory: file.appendingPathComponent("data"))

        let failure = #expect(throws: ServiceFailure.self) {
            try ServiceTestSupport.call(storage, "storage.set", #"{"key":"k","value":"v"}"#)
        }
        #expect(failure?.kind == .unavailable)
        #expect(failure?.message.contains("cannot create the data folder \(file.path)/data") == true, "\(failure?.message ?? "")")
        #expect(failure?.message.contains("another data folder") == true)
    }

    @Test("a data folder that is a file fails with a message naming it")
    func folderIsAFile() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        let file = root.appendingPathComponent("data")
        try Data("not a folder".utf8).write(to: file)
        let failure = #expect(throws: ServiceFailure.self) {
            try SQLiteStorageEngine(directory: file).open()
        }
        #expect(failure?.kind == .unavailable)
        #expect(failure?.message.contains("\(file.path) is a file, not a folder") == true, "\(failure?.message ?? "")")
    }

    @Test("a read-only data folder fails with a message naming it", .enabled(if: getuid() != 0, "root may write anywhere"))
    func readOnlyFolder() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: root.path)
        let failure = #expect(throws: ServiceFailure.self) {
            try SQLiteStorageEngine(directory: root).open()
        }
        #expect(failure?.kind == .unavailable)
        #expect(failure?.message.contains("\(root.path) is not writable") == true, "\(failure?.message ?? "")")
    }

    @Test("a file that is not a database fails with a message naming it and what to do")
    func notADatabase() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        let file = root.appendingPathComponent("storage.sqlite")
        try Data(String(repeating: "these are my notes, not a database\n", count: 200).utf8).write(to: file)
        let engine = SQLiteStorageEngine(directory: root)
        defer { engine.close() }

        let failure = #expect(throws: ServiceFailure.self) { try engine.get(namespace: "jogs", key: "k") }
        #expect(failure?.kind == .unavailable)
        #expect(failure?.message.contains("\(file.path) is not a SQLite database") == true, "\(failure?.message ?? "")")
        #expect(failure?.message.contains("Move the file aside") == true)

        // The failure is not remembered: once the file is moved aside, storage works.
        try FileManager.default.moveItem(at: file, to: root.appendingPathComponent("notes.txt"))
        try engine.set(namespace: "jogs", key: "k", value: "v")
        #expect(try engine.get(namespace: "jogs", key: "k") == "v")
    }
}

/// Values collected from many threads (nil: a call failed).
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int?] = []
    func add(_ value: Int?) { lock.withLock { values.append(value) } }
    /// Every value, sorted; a failed call shows as -1 so the comparison fails visibly.
    var sorted: [Int] { lock.withLock { values.map { $0 ?? -1 }.sorted() } }
}

/// A thread-safe counter for concurrent tests.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
