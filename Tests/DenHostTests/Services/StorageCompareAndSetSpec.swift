import DenHost
import DenLibraryClients
import DenAccounts
import DenKit
import DenPostgresEngine
@testable import DenSQLiteEngine
import DenTestSupport
import Foundation
import Synchronization
import Testing

/// What den serve's browser sessions rest on beyond plain writes: a save that applies only over
/// the revision it started from, a cheap sign that another process wrote, and (on PostgreSQL)
/// deletions every host hears of.
@Suite("Storage: compare-and-set saves, other processes' writes, deletions heard")
struct StorageCompareAndSetSpec {
    private static let namespace = "@den.web.sessions"

    @Test("a compare-and-set applies only while the key holds the expected value", arguments: StorageEngineKind.allCases)
    func appliesOnlyOverTheExpectedValue(kind: StorageEngineKind) throws {
        let (engine, folder) = try kind.make()
        defer { if let folder { ServiceTestSupport.remove(folder) } }
        try engine.apply(namespace: Self.namespace, operations: [.set(key: "session/a", value: "one"), .set(key: "revision/a", value: "r1")])
        let save: [StorageOperation] = [.set(key: "session/a", value: "two"), .set(key: "revision/a", value: "r2")]

        #expect(try engine.applyUnsynced(namespace: Self.namespace, operations: save, ifKey: "revision/a", holds: "r1"))
        #expect(try engine.get(namespace: Self.namespace, key: "session/a") == "two")
        // The same save again starts from a revision that is gone: nothing changes.
        let stale: [StorageOperation] = [.set(key: "session/a", value: "stale"), .set(key: "revision/a", value: "r3")]
        #expect(try !engine.applyUnsynced(namespace: Self.namespace, operations: stale, ifKey: "revision/a", holds: "r1"))
        #expect(try engine.get(namespace: Self.namespace, key: "session/a") == "two")
        #expect(try engine.get(namespace: Self.namespace, key: "revision/a") == "r2")
        // A deleted copy is never written back.
        try engine.apply(namespace: Self.namespace, operations: [.delete(key: "session/a"), .delete(key: "revision/a")])
        #expect(try !engine.applyUnsynced(namespace: Self.namespace, operations: save, ifKey: "revision/a", holds: "r2"))
        #expect(try engine.list(namespace: Self.namespace, prefix: "").isEmpty)
    }

    @Test("of many saves from the same revision at once, exactly one applies", arguments: StorageEngineKind.allCases)
    func oneOfManyWins(kind: StorageEngineKind) throws {
        let (engine, folder) = try kind.make()
        defer { if let folder { ServiceTestSupport.remove(folder) } }
        try engine.set(namespace: Self.namespace, key: "revision/a", value: "r0")
        let applied = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let save: [StorageOperation] = [.set(key: "session/a", value: "from \(index)"), .set(key: "revision/a", value: "r\(index + 1)")]
            if (try? engine.applyUnsynced(namespace: Self.namespace, operations: save, ifKey: "revision/a", holds: "r0")) == true {
                applied.withLock { $0.append(index) }
            }
        }
        let winners = applied.withLock { $0 }
        #expect(winners.count == 1, "\(winners)")
        if let winner = winners.first {
            #expect(try engine.get(namespace: Self.namespace, key: "session/a") == "from \(winner)")
            #expect(try engine.get(namespace: Self.namespace, key: "revision/a") == "r\(winner + 1)")
        }
    }

    @Test("SQLite tells another process's commit, and never its own", arguments: [StorageEngineKind.sqlite, .library, .libraryDocuments])
    func foreignChanges(kind: StorageEngineKind) throws {
        let (engine, folder) = try kind.make()
        defer { if let folder { ServiceTestSupport.remove(folder) } }
        let data = try #require(folder).appendingPathComponent("data")
        try engine.set(namespace: "jogs", key: "a", value: "1")
        let before = try #require(try engine.foreignChanges())
        try engine.set(namespace: "jogs", key: "b", value: "2")
        try engine.applyUnsynced(namespace: Self.namespace, operations: [.set(key: "session/x", value: "y")])
        #expect(try engine.foreignChanges() == before, "its own writes")
        let other = SQLiteStorageEngine(directory: data)
        defer { other.close() }
        try other.set(namespace: "jogs", key: "c", value: "3")
        #expect(try engine.foreignChanges() != before, "another connection's write")
    }

    @Test("an engine no other process can write to says so", arguments: [StorageEngineKind.inMemory, .postgres])
    func noForeignChanges(kind: StorageEngineKind) throws {
        let (engine, _) = try kind.make()
        #expect(try engine.foreignChanges() == nil)
    }

    @Test("PostgreSQL: a deletion of a den key by another host reaches every watcher of its namespace, and no other")
    func deletionsHeard() throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.url(database: try cluster.makeDatabase("deletions"))
        let watching = try PostgresStorageEngine(url: url), deleting = try PostgresStorageEngine(url: url)
        #expect(watching.prepare() == .ready)
        let heard = Mutex<[StorageChange]>([])
        #expect(watching.watchChanges(in: Self.namespace) { event in heard.withLock { $0.append(event) } })
        #expect(Self.waitFor { heard.withLock { $0.contains(.watching) } }, "listening starts")
        try deleting.apply(namespace: Self.namespace, operations: [.set(key: "session/a", value: "1"), .set(key: "session/b", value: "2")])
        try deleting.set(namespace: "@den.auth", key: "user/alice", value: "{}")
        try deleting.set(namespace: "jogs", key: "session/a", value: "1")
        // Other namespaces first: if their deletions were reported, they would come before.
        _ = try deleting.delete(namespace: "@den.auth", key: "user/alice")
        _ = try deleting.delete(namespace: "jogs", key: "session/a")
        _ = try deleting.delete(namespace: Self.namespace, key: "session/a")
        #expect(Self.waitFor { heard.withLock { $0.contains(.changed("session/a")) } }, "\(heard.withLock { $0 })")
        #expect(heard.withLock { $0 } == [.watching, .changed("session/a")])
        // An overwrite of a session is not reported (every save would be).
        try deleting.set(namespace: Self.namespace, key: "session/b", value: "3")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(heard.withLock { $0 } == [.watching, .changed("session/a")])
    }

    @Test("PostgreSQL: a watcher that comes after the channel is heard (the accounts' came first) is told it is watching, and hears deletions")
    func lateWatcher() throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.url(database: try cluster.makeDatabase("late-watcher"))
        let watching = try PostgresStorageEngine(url: url), deleting = try PostgresStorageEngine(url: url)
        #expect(watching.prepare() == .ready)
        let first = Mutex<[StorageChange]>([]), late = Mutex<[StorageChange]>([])
        #expect(watching.watchChanges(in: "@den.auth") { event in first.withLock { $0.append(event) } })
        #expect(Self.waitFor { first.withLock { $0.contains(.watching) } }, "listening starts")
        #expect(watching.watchChanges(in: Self.namespace) { event in late.withLock { $0.append(event) } })
        // Without it, den serve never trusted a held session on PostgreSQL: a storage read per request.
        #expect(late.withLock { $0 } == [.watching])
        try deleting.set(namespace: Self.namespace, key: "session/a", value: "1")
        _ = try deleting.delete(namespace: Self.namespace, key: "session/a")
        #expect(Self.waitFor { late.withLock { $0.contains(.changed("session/a")) } }, "\(late.withLock { $0 })")
        #expect(first.withLock { $0 } == [.watching])
    }

    @Test("PostgreSQL: an overwritten account record reaches every watcher of the accounts namespace")
    func accountChangesHeard() throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.url(database: try cluster.makeDatabase("accounts"))
        let watching = try PostgresStorageEngine(url: url), writing = try PostgresStorageEngine(url: url)
        #expect(watching.prepare() == .ready)
        let heard = Mutex<[StorageChange]>([])
        #expect(watching.watchChanges(in: "@den.auth") { event in heard.withLock { $0.append(event) } })
        #expect(Self.waitFor { heard.withLock { $0.contains(.watching) } }, "listening starts")
        try writing.set(namespace: "@den.auth", key: "user/alice", value: "{\"v\":1}")
        try writing.set(namespace: "@den.auth", key: "user/alice", value: "{\"v\":2}")
        #expect(Self.waitFor { heard.withLock { $0.contains(.changed("user/alice")) } }, "\(heard.withLock { $0 })")
        #expect(heard.withLock { $0 } == [.watching, .changed("user/alice")], "the first write was an insert: nothing held to drop")
    }

    @Test("PostgreSQL: a password changed on one host replaces the account identity another host keeps")
    func identityAcrossHosts() throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.url(database: try cluster.makeDatabase("identity"))
        let engineA = try PostgresStorageEngine(url: url), engineB = try PostgresStorageEngine(url: url)
        var settings = AuthSettings()
        settings.hashParameters = .testing
        let hostA = AccountBook(engine: engineA, settings: settings), hostB = AccountBook(engine: engineB, settings: settings)
        _ = try hostB.register(username: "alice", password: "Sesame-Opens-42")
        Thread.sleep(forTimeInterval: 0.5) // host A listens by now, so it keeps what it reads
        let before = try #require(try hostA.accountIdentity("alice"))
        #expect(try hostA.accountIdentity("alice") == before)
        #expect(try hostB.changePassword(username: "alice", current: "Sesame-Opens-42", new: "New-Sesame-Words-9").outcome == .ok)
        let after = try #require(try hostB.accountIdentity("alice"))
        #expect(after != before)
        #expect(Self.waitFor { (try? hostA.accountIdentity("alice")) == after }, "host A still answers the identity from before the change")
    }

    static func waitFor(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }
}
