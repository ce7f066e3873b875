import DenHost
@testable import DenSQLiteEngine
import DenTestSupport
import Foundation
import GRDB
import Synchronization
import Testing

/// Another process (here: this test, through its own SQLite connection) holds a long write lock
/// on the data folder's database while the built `den` runs. Lives with the service tests
/// because holding the lock needs GRDB, which the end-to-end target does not link.
@Suite("Storage under another process's write lock", .serialized)
struct StorageLockSpec {
    /// A data folder with Main's saved amount 42, written through den itself.
    static func savedFolder() throws -> (TemporaryDirectory, URL) {
        let temp = try TemporaryDirectory("den-lock")
        let data = temp.path("data")
        let result = try ProcessRunner.run(BuildProducts.require(BuildProducts.den), ["run", "main"],
                                           input: "set amount 42\nconvert\nquit\n", environment: environment(temp))
        #expect(result.status == 0, "\(result.stderr)")
        return (temp, data)
    }

    static func environment(_ temp: TemporaryDirectory) -> [String: String] {
        ["DEN_DATA_DIR": temp.path("data").path, "DEN_CACHE_DIR": temp.path("cache").path,
         "DEN_PLUGIN_PATH": "", "NO_COLOR": "1"]
    }

    /// Holds `BEGIN IMMEDIATE` (the write lock) on the file until `release`.
    final class LockHolder: @unchecked Sendable {
        let queue: DatabaseQueue
        init(_ file: URL) throws {
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true // the point: a transaction left open
            queue = try DatabaseQueue(path: file.path, configuration: configuration)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                try db.execute(sql: "INSERT INTO entries VALUES ('other', 'k', 'v', '2026-01-01')")
            }
        }
        func release() throws {
            try queue.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
            try queue.close()
        }
    }

    @Test("screens read the saved values at once while another process holds the write lock")
    func readsDoNotWait() throws {
        let (temp, data) = try Self.savedFolder()
        let lock = try LockHolder(data.appendingPathComponent("storage.sqlite"))
        defer { try? lock.release() }
        let start = ContinuousClock.now
        let result = try ProcessRunner.run(BuildProducts.den, ["render", "main"], environment: Self.environment(temp), timeout: 30)
        let elapsed = ContinuousClock.now - start
        #expect(result.stdout.contains("42 USD = "), "the saved amount, not the defaults: \(result.stdout)")
        // Did not wait for the lock: a read that waited would take den's 10 s busy limit (the
        // bound leaves a loaded machine's cold start room below it).
        #expect(elapsed < .seconds(9), "render took \(elapsed)")
    }

    @Test("a save waiting for the lock says so while it waits, naming the file, then completes")
    func writeSaysItWaits() throws {
        let (temp, data) = try Self.savedFolder()
        let lock = try LockHolder(data.appendingPathComponent("storage.sqlite"))
        var released = false
        defer { if !released { try? lock.release() } }

        let start = ContinuousClock.now
        let process = try Spawned(try BuildProducts.require(BuildProducts.den), ["config", "set", "main", "rates_url", "https://example.org/r.xml"],
                                  environment: ProcessInfo.processInfo.environment.merging(Self.environment(temp)) { $1 })
        try? process.input.close()
        process.output.readabilityHandler = { _ = $0.availableData } // read and dropped
        defer { process.output.readabilityHandler = nil }

        // Read standard error as it comes, and time the first line.
        var text = ""
        var noticeAfter: Duration?
        while ContinuousClock.now - start < .seconds(9) {
            let chunk = process.errors.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if text.contains("waiting for") { noticeAfter = ContinuousClock.now - start; break }
        }
        // Said while the save still waits (den gives up after 10 s; the lock is released below).
        try #require(noticeAfter != nil, "no waiting notice: \(text)")
        #expect(process.isRunning, "the save was still waiting when it said so")
        #expect(text.contains("which holds the write lock on \(data.path)/storage.sqlite"), "\(text)")
        #expect(text.contains("den gives up after 10 s"))

        try lock.release()
        released = true
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let engine = SQLiteStorageEngine(directory: data)
        defer { engine.close() }
        #expect(try engine.get(namespace: "main", key: "config.rates_url") == "https://example.org/r.xml")
    }

    @Test("a save that waits too long fails naming the lock, and nothing is lost")
    func writeGivesUp() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-lock")
        defer { ServiceTestSupport.remove(root) }
        let waits = Mutex<[StorageWait]>([])
        let engine = SQLiteStorageEngine(directory: root, waitLimit: .seconds(3)) { wait in waits.withLock { $0.append(wait) } }
        defer { engine.close() }
        try engine.set(namespace: "main", key: "k", value: "before")
        let lock = try LockHolder(engine.fileURL)
        defer { try? lock.release() }

        let failure = #expect(throws: ServiceFailure.self) { try engine.set(namespace: "main", key: "k", value: "after") }
        #expect(failure?.message.contains("kept the database \(engine.fileURL.path) locked for longer than den waits") == true, "\(failure?.message ?? "")")
        #expect(failure?.message.contains("Nothing was written") == true)
        #expect(waits.withLock { $0.count } == 1)
        #expect(try engine.get(namespace: "main", key: "k") == "before")
    }
}
