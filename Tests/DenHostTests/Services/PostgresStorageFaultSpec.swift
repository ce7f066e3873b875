import DenHost
import DenKit
import DenPostgresEngine
import DenTestSupport
import Foundation
import Synchronization
import Testing

/// What the PostgreSQL engine says and does when the database misbehaves: a clear message,
/// nothing written by half, and the next call working once the database is back, without a new
/// engine. Tests that stop their server use a cluster of their own.
@Suite("PostgreSQL storage: faults and recovery")
struct PostgresStorageFaultSpec {
    @Test("a wrong password is named as such, and nothing is written")
    func wrongPassword() throws {
        let cluster = try PostgresCluster.shared()
        let database = try cluster.makeDatabase("password")
        let wrong = try PostgresStorageEngine(url: cluster.url(database: database, password: "not-the-password"), callLimit: .seconds(5))
        let failure = #expect(throws: ServiceFailure.self) { try wrong.set(namespace: "jogs", key: "k", value: "v") }
        #expect(failure?.message.contains("refused den's login") == true, "\(failure?.message ?? "")")
        #expect(failure?.message.contains("not-the-password") == false, "the message never shows the password")
        #expect(failure?.message.contains("Check the user and password") == true)
        #expect(wrong.prepare() != .ready)
        let right = try PostgresStorageEngine(url: cluster.url(database: database))
        #expect(try right.get(namespace: "jogs", key: "k") == nil)
    }

    @Test("a database whose schema is newer than this den is refused at start and on every call, and left as it was")
    func schemaTooNew() throws {
        let cluster = try PostgresCluster.shared()
        let database = try cluster.makeDatabase("schema")
        let first = try PostgresStorageEngine(url: cluster.url(database: database))
        try first.set(namespace: "jogs", key: "kept", value: "1")
        try cluster.sql("INSERT INTO den_schema (version) VALUES (99)", database: database)

        let older = try PostgresStorageEngine(url: cluster.url(database: database))
        guard case .refused(let message) = older.prepare() else {
            Issue.record("a newer schema must be refused, not \(older.prepare())")
            return
        }
        #expect(message.contains("schema version 99"))
        #expect(message.contains("Upgrade this den"))
        let failure = #expect(throws: ServiceFailure.self) { try older.set(namespace: "jogs", key: "new", value: "2") }
        #expect(failure?.message.contains("schema version 99") == true)
        #expect(try cluster.sql("SELECT count(*) FROM den_entries", database: database) == "1")
        #expect(try cluster.sql("SELECT max(version) FROM den_schema", database: database) == "99")
    }

    @Test("a fresh database gets den's tables and its schema version, once, even with several hosts starting together")
    func createsSchema() throws {
        let cluster = try PostgresCluster.shared()
        let database = try cluster.makeDatabase("fresh")
        let engines = try (0..<4).map { _ in try PostgresStorageEngine(url: cluster.url(database: database)) }
        DispatchQueue.concurrentPerform(iterations: engines.count) { index in
            #expect(engines[index].prepare() == .ready)
        }
        #expect(try cluster.sql("SELECT string_agg(version::text, ',' ORDER BY version) FROM den_schema", database: database) == "1,2,3")
        #expect(try engines[0].namespaces() == [])
    }

    @Test("the database down at start: a clear message, then the same engine works once it is up, without a restart")
    func downAtStart() throws {
        let cluster = try PostgresCluster.start(label: "den-pg-down")
        defer { cluster.destroy() }
        let database = try cluster.makeDatabase("down")
        try cluster.stopServer()
        let engine = try PostgresStorageEngine(url: cluster.url(database: database), callLimit: .seconds(3))
        guard case .unavailable(let message) = engine.prepare() else {
            Issue.record("a stopped server must be reported as unavailable")
            return
        }
        #expect(message.contains("connection refused"), "\(message)")
        #expect(message.contains("den connects again on the next call"))
        let failure = #expect(throws: ServiceFailure.self) { try engine.set(namespace: "jogs", key: "a", value: "1") }
        #expect(failure?.kind == .unavailable)

        try cluster.startServer()
        try engine.set(namespace: "jogs", key: "a", value: "1")
        #expect(try engine.get(namespace: "jogs", key: "a") == "1")
    }

    @Test("the database lost between calls and back: committed data is there, the failed call wrote nothing, the engine carries on")
    func lostAndBack() throws {
        let cluster = try PostgresCluster.start(label: "den-pg-lost")
        defer { cluster.destroy() }
        let database = try cluster.makeDatabase("lost")
        let engine = try PostgresStorageEngine(url: cluster.url(database: database), callLimit: .seconds(3))
        try engine.set(namespace: "jogs", key: "before", value: "kept")
        #expect(try engine.increment(namespace: "jogs", key: "n") == 1)

        try cluster.stopServer()
        let failure = #expect(throws: ServiceFailure.self) {
            try engine.apply(namespace: "jogs", operations: [.set(key: "during", value: "x"), .delete(key: "before")])
        }
        #expect(failure?.kind == .unavailable)
        #expect(failure?.message.contains("PostgreSQL at") == true, "\(failure?.message ?? "")")

        try cluster.startServer()
        #expect(try engine.get(namespace: "jogs", key: "before") == "kept")
        #expect(try engine.get(namespace: "jogs", key: "during") == nil)
        #expect(try engine.increment(namespace: "jogs", key: "n") == 2)
    }

    @Test("the database lost and back: change watchers hear that reports stopped, then that they resumed, and hear changes again")
    func changeReportsAcrossAnOutage() throws {
        let cluster = try PostgresCluster.start(label: "den-pg-watch")
        defer { cluster.destroy() }
        let database = try cluster.makeDatabase("watch")
        let engine = try PostgresStorageEngine(url: cluster.url(database: database), callLimit: .seconds(3))
        #expect(engine.prepare() == .ready)
        let heard = Mutex<[StorageChange]>([])
        #expect(engine.watchChanges(in: "@den.web.sessions") { event in heard.withLock { $0.append(event) } })
        #expect(StorageCompareAndSetSpec.waitFor { heard.withLock { $0 } == [.watching] })

        try cluster.stopServer()
        // Whatever a host held may have changed unheard from now on: it must trust nothing.
        #expect(StorageCompareAndSetSpec.waitFor(seconds: 10) { heard.withLock { $0.last } == .stopped }, "\(heard.withLock { $0 })")
        try cluster.startServer()
        #expect(StorageCompareAndSetSpec.waitFor(seconds: 15) { heard.withLock { $0.last } == .watching }, "\(heard.withLock { $0 })")
        try engine.set(namespace: "@den.web.sessions", key: "session/a", value: "1")
        _ = try engine.delete(namespace: "@den.web.sessions", key: "session/a")
        #expect(StorageCompareAndSetSpec.waitFor { heard.withLock { $0.last } == .changed("session/a") }, "\(heard.withLock { $0 })")
        #expect(heard.withLock { $0.filter { $0 == .stopped }.count } == 1, "one stop for one outage: \(heard.withLock { $0 })")
    }

    @Test("a slow database (a lock held past den's limit): the call fails saying so, writes nothing, and the next one works")
    func slow() throws {
        let cluster = try PostgresCluster.shared()
        let database = try cluster.makeDatabase("slow")
        let engine = try PostgresStorageEngine(url: cluster.url(database: database), callLimit: .seconds(1))
        try engine.set(namespace: "jogs", key: "a", value: "1")
        // Another session holds the table for 4 s.
        let holder = try Spawned(URL(fileURLWithPath: "/usr/bin/psql"),
                                 ["-X", "-q", "-h", "127.0.0.1", "-p", "\(cluster.port)", "-U", PostgresCluster.user, "-d", database,
                                  "-c", "BEGIN; LOCK TABLE den_entries IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(4); COMMIT;"],
                                 environment: ["PGPASSWORD": PostgresCluster.password])
        try? holder.input.close()
        defer { holder.waitUntilExit() }
        Thread.sleep(forTimeInterval: 0.7)
        let failure = #expect(throws: ServiceFailure.self) {
            try engine.apply(namespace: "jogs", operations: [.set(key: "a", value: "2"), .set(key: "b", value: "2")])
        }
        #expect(failure?.message.contains("within 1 s") == true, "\(failure?.message ?? "")")
        #expect(failure?.message.contains("Nothing was written") == true)
        holder.waitUntilExit()
        #expect(try engine.get(namespace: "jogs", key: "a") == "1")
        #expect(try engine.get(namespace: "jogs", key: "b") == nil)
    }

    @Test("a server refusing more connections: the call says so, and works once connections are allowed again")
    func refusingConnections() throws {
        let cluster = try PostgresCluster.shared()
        let role = "den_limited_\(getpid())_\(Int.random(in: 0..<1_000_000))"
        try cluster.sql("CREATE ROLE \(role) LOGIN PASSWORD 'limited-password'")
        let database = try cluster.makeDatabase("refusing")
        try cluster.sql("ALTER DATABASE \(database) OWNER TO \(role)")
        let engine = try PostgresStorageEngine(url: cluster.url(database: database, user: role, password: "limited-password"), callLimit: .seconds(3))
        try engine.set(namespace: "jogs", key: "a", value: "1")
        engine.close()
        try cluster.sql("ALTER ROLE \(role) CONNECTION LIMIT 0")
        let failure = #expect(throws: ServiceFailure.self) { try engine.set(namespace: "jogs", key: "a", value: "2") }
        #expect(failure?.message.contains("accepts no more connections") == true, "\(failure?.message ?? "")")
        #expect(failure?.message.contains("Nothing was written") == true)
        try cluster.sql("ALTER ROLE \(role) CONNECTION LIMIT -1")
        #expect(try engine.get(namespace: "jogs", key: "a") == "1")
        try engine.set(namespace: "jogs", key: "a", value: "2")
        #expect(try engine.get(namespace: "jogs", key: "a") == "2")
    }

    @Test("a URL den cannot use is refused with what is wrong, never echoing the password")
    func badURLs() {
        for (url, expected) in [("postgres://den@host", "names no database"),
                                ("postgres://host/db", "names no user"),
                                ("postgres://den:pw@host/db?sslmode=sometimes", "sslmode 'sometimes'"),
                                ("postgres://den:pw@host/db?colour=red", "unknown parameter 'colour'"),
                                ("mysql://den:secret@host/db", "mysql://den:***@host/db")] {
            let failure = #expect(throws: ServiceFailure.self) { try PostgresLocation(url: url) }
            #expect(failure?.message.contains(expected) == true, "\(url): \(failure?.message ?? "")")
            #expect(failure?.message.contains("secret") == false)
        }
        #expect((try? PostgresLocation(url: "postgresql://u:p@db.example.com:6543/den?sslmode=verify-full"))?.description == "u@db.example.com:6543/den")
    }
}
