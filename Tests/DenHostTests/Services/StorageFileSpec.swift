import DenHost
@testable import DenSQLiteEngine
import Foundation
import GRDB
import Testing

/// What is in the data folder's files, and the maintenance calls behind `den data`.
@Suite("Storage file, backup and check")
struct StorageFileSpec {
    static func files(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// Reads `file` on its own, as a copy would be read: immutable, so SQLite looks at no -wal.
    static func entries(ofLoneFile file: URL) throws -> [String] {
        var url = URLComponents(url: file, resolvingAgainstBaseURL: false)!
        url.queryItems = [URLQueryItem(name: "immutable", value: "1")]
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.string!, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { try String.fetchAll($0, sql: "SELECT key FROM entries ORDER BY key") }
    }

    @Test("closing merges the log: storage.sqlite is the only file left and holds everything")
    func closeLeavesOneFile() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        let engine = SQLiteStorageEngine(directory: root)
        try engine.set(namespace: "main", key: "a", value: "1")
        _ = try engine.list(namespace: "main", prefix: "")
        engine.close()
        #expect(try Self.files(root) == ["storage.sqlite"])
        #expect(try Self.entries(ofLoneFile: root.appendingPathComponent("storage.sqlite")) == ["a"])
    }

    @Test("a new data folder and database are their owner's only: 0700 and 0600, the -wal file too")
    func ownerOnly() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        let folder = root.appendingPathComponent("data")
        let engine = SQLiteStorageEngine(directory: folder)
        defer { engine.close() }
        try engine.set(namespace: "main", key: "a", value: "1")

        func mode(_ url: URL) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) & 0o777
        }
        #expect(try mode(folder) == 0o700)
        #expect(try mode(folder.appendingPathComponent("storage.sqlite")) == 0o600)
        let wal = folder.appendingPathComponent("storage.sqlite-wal")
        if FileManager.default.fileExists(atPath: wal.path) { #expect(try mode(wal) == 0o600) }
    }

    @Test("every committed write reaches storage.sqlite itself soon after, off the writer's path, so a killed den leaves it complete")
    func checkpointAfterWrite() async throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        let engine = SQLiteStorageEngine(directory: root)
        defer { engine.close() }
        try engine.set(namespace: "main", key: "a", value: "1")
        try engine.apply(namespace: "main", operations: [.set(key: "b", value: "2")])
        // Not closed: as if den were killed now. The background checkpoint copies the log in.
        let file = root.appendingPathComponent("storage.sqlite")
        let deadline = ContinuousClock.now + .seconds(5)
        while (try? Self.entries(ofLoneFile: file)) != ["a", "b"], ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(try Self.entries(ofLoneFile: file) == ["a", "b"])
    }

    @Test("backup writes one self-contained file in rollback-journal mode with every entry")
    func backup() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        let engine = SQLiteStorageEngine(directory: root.appendingPathComponent("data"))
        defer { engine.close() }
        try engine.set(namespace: "main", key: "a", value: "1")
        try engine.set(namespace: "jogs", key: "b", value: "2")
        let file = root.appendingPathComponent("copy.sqlite")

        let summary = try engine.backup(to: file)
        #expect(summary.entries == 2 && summary.modules == 2)
        #expect(try Self.files(root) == ["copy.sqlite", "data"])
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o600, "the backup holds password hashes: owner-only, like storage.sqlite, under the usual umask")
        let queue = try DatabaseQueue(path: file.path)
        let (journal, keys) = try queue.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try String.fetchAll(db, sql: "SELECT key FROM entries ORDER BY key"))
        }
        #expect(journal == "delete")
        #expect(keys == ["a", "b"])
        try queue.close()

        let again = #expect(throws: ServiceFailure.self) { _ = try engine.backup(to: file) }
        #expect(again?.message.contains("already exists") == true)
        let nowhere = #expect(throws: ServiceFailure.self) { _ = try engine.backup(to: root.appendingPathComponent("no/such/x.sqlite")) }
        #expect(nowhere?.message.contains("does not exist; create it first") == true)
    }

    @Test("check: healthy with counts, no database yet, and damage found in a broken page")
    func check() throws {
        let root = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(root) }
        let engine = SQLiteStorageEngine(directory: root)
        #expect(try engine.check().outcome == .noDatabase)
        #expect(!FileManager.default.fileExists(atPath: engine.fileURL.path), "checking creates nothing")
        for index in 0..<300 { try engine.set(namespace: "main", key: "k\(index)", value: String(repeating: "v", count: 200)) }
        let healthy = try engine.check()
        #expect(healthy.outcome == .healthy)
        #expect(healthy.entries == 300 && healthy.modules == 1)
        engine.close()

        // Overwrite the middle of the file (table pages, past the header and schema).
        let handle = try FileHandle(forWritingTo: engine.fileURL)
        try handle.seek(toOffset: 4096 * 4)
        handle.write(Data(repeating: 0xA5, count: 4096 * 3))
        try handle.close()
        let damaged = SQLiteStorageEngine(directory: root)
        defer { damaged.close() }
        guard case .damaged(let problems) = try damaged.check().outcome else {
            Issue.record("damage not found")
            return
        }
        #expect(!problems.isEmpty)
    }
}
