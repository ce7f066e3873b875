import DenKit
import DenLibraryContracts
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The `StorageEngine` on a PostgreSQL database that several den hosts share
/// (`den serve --database postgres://…`). It behaves as the SQLite engine does: per-module
/// namespaces, all-or-nothing transactions, atomic increments and inserts, listing in byte order.
///
/// - Entries live in `den_entries` (namespace, key, value); keys and values are `bytea` holding
///   UTF-8, so byte order is the sort order and U+0000 survives, as on SQLite.
/// - Every value reaches the server as a bound parameter, never inside the SQL text.
/// - Connections come from postgres-nio's `PostgresClient` pool. Creating an engine connects to
///   nothing; the first call (or `prepare()`) connects and creates or migrates the schema
///   (`PostgresSchema`).
/// - A call waits at most `callLimit`; the server cancels a statement or lock wait past it
///   (`statement_timeout`), rolling its transaction back. When the pool cannot connect, one
///   direct connection finds out why (refused, wrong password, no such database) for the message;
///   when that connection works but the pool does not, the pool is replaced, so den recovers
///   without a restart once the database is back.
public final class PostgresStorageEngine: StorageEngine, @unchecked Sendable {
    public static let defaultCallLimit: Duration = .seconds(10)

    public let location: PostgresLocation
    public let callLimit: Duration
    let threads = PostgresThreads()
    let logger = Logger(label: "den.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    var messages: PostgresFailureText { PostgresFailureText(location: location, limit: callLimit) }

    private struct Pool {
        let client: PostgresClient
        let runner: Task<Void, Never>
    }

    private struct State {
        var pool: Pool?
        /// Set once this engine has seen (or made) the schema it knows; cleared with the pool.
        var schemaReady = false
        /// True until a connection worked, and again after one failed: each call then first
        /// tries one direct connection (a refusal is known at once, where the pool would queue
        /// the call until its limit), and replaces the pool when that works.
        var suspect = true
    }

    private let state = Mutex(State())
    private let changes = PostgresChangeWatch()

    public init(location: PostgresLocation, callLimit: Duration = PostgresStorageEngine.defaultCallLimit) {
        self.location = location
        self.callLimit = callLimit
    }

    /// An engine for a `postgres://` URL; the failure says what is wrong with the URL.
    public convenience init(url: String, callLimit: Duration = PostgresStorageEngine.defaultCallLimit) throws(ServiceFailure) {
        self.init(location: try PostgresLocation(url: url), callLimit: callLimit)
    }

    deinit {
        close()
    }

    /// Closes every connection; the next call opens new ones.
    public func close() {
        let pool = state.withLock { state -> Pool? in
            defer { state.pool = nil; state.schemaReady = false }
            return state.pool
        }
        pool?.runner.cancel()
    }

    /// What `prepare()` found.
    public enum Readiness: Sendable, Equatable {
        case ready
        /// The database cannot be reached or used now; den can start and retries on each call.
        case unavailable(String)
        /// The schema is newer than this den: it must not start on this database.
        case refused(String)
    }

    /// Connects and creates or migrates the schema now (den serve's start), instead of on the first call.
    public func prepare() -> Readiness {
        do throws(ServiceFailure) {
            try ensureSchema()
            return .ready
        } catch {
            return error.message.contains(PostgresSchema.tooNewMarker) ? .refused(error.message) : .unavailable(error.message)
        }
    }

    // MARK: StorageEngine

    public func get(namespace: String, key: String) throws(ServiceFailure) -> String? {
        try run("read from", writing: false) { connection in
            let rows = try await connection.query(
                "SELECT value FROM den_entries WHERE namespace = \(namespace) AND key = \(Self.bytes(key))", logger: self.logger)
            for try await value in rows.decode(ByteBuffer.self) { return String(buffer: value) }
            return nil
        }
    }

    public func set(namespace: String, key: String, value: String) throws(ServiceFailure) {
        try Self.refuseEmpty(key)
        try run("save to", writing: true) { connection in
            try await self.set(connection, namespace, key, value)
        }
    }

    public func delete(namespace: String, key: String) throws(ServiceFailure) -> Bool {
        try run("save to", writing: true) { connection in
            try await self.delete(connection, namespace, key)
        }
    }

    public func list(namespace: String, prefix: String) throws(ServiceFailure) -> [StorageEntry] {
        let prefixBytes = Self.bytes(prefix)
        let length = Int32(prefixBytes.readableBytes)
        return try run("read from", writing: false) { connection in
            // `key >= prefix` lets PostgreSQL seek the primary key; the byte comparison is the
            // exact prefix test (LIKE would treat % and _ specially).
            let rows = try await connection.query("""
                SELECT key, value FROM den_entries
                WHERE namespace = \(namespace) AND key >= \(prefixBytes) AND substring(key FROM 1 FOR \(length)) = \(prefixBytes)
                ORDER BY key
                """, logger: self.logger)
            var entries: [StorageEntry] = []
            for try await (key, value) in rows.decode((ByteBuffer, ByteBuffer).self) {
                entries.append(StorageEntry(key: String(buffer: key), value: String(buffer: value)))
            }
            return entries
        }
    }

    public func apply(namespace: String, operations: [StorageOperation]) throws(ServiceFailure) {
        guard !operations.isEmpty else { return }
        try apply(across: operations.map { NamespacedOperation(namespace: namespace, operation: $0) })
    }

    public func apply(across operations: [NamespacedOperation]) throws(ServiceFailure) {
        try apply(across: operations, synced: true)
    }

    public func applyUnsynced(namespace: String, operations: [StorageOperation]) throws(ServiceFailure) {
        try apply(across: operations.map { NamespacedOperation(namespace: namespace, operation: $0) }, synced: false)
    }

    public func applyUnsynced(namespace: String, operations: [StorageOperation], ifKey key: String, holds expected: String) throws(ServiceFailure) -> Bool {
        for operation in operations { if case .set(let key, _) = operation { try Self.refuseEmpty(key) } }
        // den serve's session save: two records, one statement.
        if operations.count == 2, case .set(let first, let firstValue) = operations[0], case .set(let second, let secondValue) = operations[1],
           first != second {
            return try run("save to", writing: true) { connection in
                try await self.compareAndSetTwo(connection, namespace, (first, firstValue), (second, secondValue), ifKey: key, holds: expected)
            }
        }
        return try run("save to", writing: true) { connection in
            try await connection.withTransaction(logger: self.logger) { connection in
                try await connection.query("SET LOCAL synchronous_commit TO OFF", logger: self.logger)
                // FOR UPDATE: another host's save of the same key waits for this commit, then
                // finds the value changed.
                let rows = try await connection.query(
                    "SELECT value FROM den_entries WHERE namespace = \(namespace) AND key = \(Self.bytes(key)) FOR UPDATE", logger: self.logger)
                var stored: String?
                for try await value in rows.decode(ByteBuffer.self) { stored = String(buffer: value) }
                guard stored == expected else { return false }
                for operation in operations {
                    switch operation {
                    case .set(let key, let value): try await self.set(connection, namespace, key, value)
                    case .delete(let key): _ = try await self.delete(connection, namespace, key)
                    }
                }
                return true
            }
        }
    }

    /// Changes in `namespace` by any host or `den` command on this database, through the
    /// `den_changes` channel (`PostgresChangeWatch`). The schema, with its trigger, is made by
    /// the first call that connects, so watching may begin before the database is up.
    public func watchChanges(in namespace: String, _ report: @escaping @Sendable (StorageChange) -> Void) -> Bool {
        changes.add(namespace: namespace, report: report, engine: self)
        return true
    }

    /// `synced: false`: the commit does not wait for the server's disk (`synchronous_commit` off for
    /// this transaction alone); a server crash may lose it, never half of it.
    private func apply(across operations: [NamespacedOperation], synced: Bool) throws(ServiceFailure) {
        guard !operations.isEmpty else { return }
        for step in operations { if case .set(let key, _) = step.operation { try Self.refuseEmpty(key) } }
        try run("save to", writing: true) { connection in
            try await connection.withTransaction(logger: self.logger) { connection in
                if !synced { try await connection.query("SET LOCAL synchronous_commit TO OFF", logger: self.logger) }
                for step in operations {
                    switch step.operation {
                    case .set(let key, let value): try await self.set(connection, step.namespace, key, value)
                    case .delete(let key): _ = try await self.delete(connection, step.namespace, key)
                    }
                }
            }
        }
    }

    public func increment(namespace: String, key: String) throws(ServiceFailure) -> Int {
        try Self.refuseEmpty(key)
        let next = try run("save to", writing: true, retries: false) { connection -> Result<Int, StorageCounterProblem> in
            try await connection.withTransaction(logger: self.logger) { connection in
                try await self.lockCounters(connection, namespace)
                let stored = try await self.value(connection, namespace, key)
                let next = StorageCounter.next(after: stored, forKey: key)
                if case .success(let value) = next { try await self.set(connection, namespace, key, String(value)) }
                return next
            }
        }
        switch next {
        case .success(let value): return value
        case .failure(let problem): throw .invalid("\(problem); nothing was written")
        }
    }

    public func insert(namespace: String, _ insert: StorageInsert) throws(ServiceFailure) -> Int {
        let outcome = try run("save to", writing: true, retries: false) { connection -> Result<Int, StorageCounterProblem>? in
            // One transaction for the counter, the check and the record: a failure writes none.
            try await connection.withTransaction(logger: self.logger) { connection in
                try await self.lockCounters(connection, namespace)
                var stored = try await self.value(connection, namespace, insert.counter)
                for _ in 0..<StorageInsert.maxTakenIDs {
                    let next = StorageCounter.next(after: stored, forKey: insert.counter)
                    guard case .success(let id) = next else { return next }
                    stored = String(id)
                    guard id > 0 else { continue }
                    guard try await self.value(connection, namespace, insert.key(for: id)) == nil else { continue }
                    try await self.set(connection, namespace, insert.counter, String(id))
                    try await self.set(connection, namespace, insert.key(for: id), insert.value(for: id))
                    return .success(id)
                }
                return nil
            }
        }
        return try insert.id(from: outcome)
    }

    public func namespaces() throws(ServiceFailure) -> [String] {
        try run("read from", writing: false) { connection in
            let rows = try await connection.query("SELECT DISTINCT namespace FROM den_entries ORDER BY namespace", logger: self.logger)
            var names: [String] = []
            for try await name in rows.decode(String.self) { names.append(name) }
            return names
        }
    }

    // MARK: SQL

    static func bytes(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    private static func refuseEmpty(_ key: String) throws(ServiceFailure) {
        if key.isEmpty { throw .invalid("storage: the key is empty; nothing was written") }
    }

    /// `applyUnsynced(…ifKey:holds:)` of two sets as one statement, so one round trip instead of
    /// six (BEGIN, SET LOCAL, the read, two writes, COMMIT): the `FOR UPDATE` read locks the key,
    /// and another host's save of it waits, then finds the value changed (READ COMMITTED reads
    /// the row again) and writes nothing. `set_config(…, true)` is SET LOCAL for the statement's
    /// own transaction: its commit does not wait for the server's disk.
    func compareAndSetTwo(_ connection: PostgresConnection, _ namespace: String, _ first: (String, String), _ second: (String, String),
                          ifKey key: String, holds expected: String) async throws -> Bool {
        let rows = try await connection.query("""
            WITH unsynced AS (SELECT set_config('synchronous_commit', 'off', true)),
            expected AS (
                SELECT 1 FROM den_entries WHERE namespace = \(namespace) AND key = \(Self.bytes(key)) AND value = \(Self.bytes(expected)) FOR UPDATE
            ),
            written AS (
                INSERT INTO den_entries (namespace, key, value, updated_at)
                SELECT \(namespace), v.key, v.value, now()
                FROM (VALUES (\(Self.bytes(first.0)), \(Self.bytes(first.1))), (\(Self.bytes(second.0)), \(Self.bytes(second.1)))) AS v(key, value)
                WHERE EXISTS (SELECT 1 FROM expected) AND EXISTS (SELECT 1 FROM unsynced)
                ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                RETURNING 1
            )
            SELECT (SELECT count(*) FROM written)::int
            """, logger: logger)
        var written = 0
        for try await count in rows.decode(Int.self) { written = count }
        return written == 2
    }

    func value(_ connection: PostgresConnection, _ namespace: String, _ key: String) async throws -> String? {
        let rows = try await connection.query(
            "SELECT value FROM den_entries WHERE namespace = \(namespace) AND key = \(Self.bytes(key))", logger: logger)
        for try await value in rows.decode(ByteBuffer.self) { return String(buffer: value) }
        return nil
    }

    func set(_ connection: PostgresConnection, _ namespace: String, _ key: String, _ value: String) async throws {
        try await connection.query("""
            INSERT INTO den_entries (namespace, key, value, updated_at) VALUES (\(namespace), \(Self.bytes(key)), \(Self.bytes(value)), now())
            ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            """, logger: logger)
    }

    func delete(_ connection: PostgresConnection, _ namespace: String, _ key: String) async throws -> Bool {
        let rows = try await connection.query(
            "DELETE FROM den_entries WHERE namespace = \(namespace) AND key = \(Self.bytes(key)) RETURNING 1", logger: logger)
        var existed = false
        for try await _ in rows { existed = true }
        return existed
    }

    /// Serializes read-then-write counters in one namespace across every host: a row lock
    /// cannot, because an absent counter has no row to lock yet.
    func lockCounters(_ connection: PostgresConnection, _ namespace: String) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\("den counters " + namespace), 0))", logger: logger)
    }

    // MARK: Running

    /// Runs `body` on a pooled connection, after making sure of the schema. `retries`: the call
    /// may run again once when the pool's connection had died (a restarted server) — only for
    /// calls that do the same thing twice (reads, sets, deletes), never increments or inserts.
    func run<T: Sendable>(_ action: String, writing: Bool, retries: Bool = true,
                          _ body: @escaping @Sendable (PostgresConnection) async throws -> T) throws(ServiceFailure) -> T {
        try ensureSchema(action, writing: writing)
        do {
            return try attempt(body)
        } catch {
            let failure = diagnose(error, doing: action, writing: writing)
            guard failure.retry, retries else { throw failure.failure }
            do { return try attempt(body) } catch { throw messages.failure(error, doing: action, writing: writing) }
        }
    }

    private func attempt<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) throws -> T {
        let client = pool().client
        return try threads.wait(atMost: callLimit + .seconds(1)) {
            try await client.withConnection { connection in try await body(connection) }
        }
    }

    /// Why a call failed. When the failure is about connecting, one direct connection tells the
    /// real reason; if that connection works, the pool is replaced (its connections had died) and
    /// a failure that never reached the server may be retried.
    private func diagnose(_ error: any Error, doing action: String, writing: Bool) -> (failure: ServiceFailure, retry: Bool) {
        let error = PostgresFailureText.cause(error)
        let lostConnection: Bool
        if let error = error as? PSQLError {
            switch error.code {
            case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection, .poolClosed: lostConnection = true
            case .server: lostConnection = ["57P01", "57P02", "57P03"].contains(error.serverInfo?[.sqlState] ?? "")
            default: lostConnection = false
            }
        } else {
            // A timeout, or the pool's own error (it gave up connecting: its circuit breaker).
            lostConnection = !(error is ServiceFailure)
        }
        guard lostConnection else { return (messages.failure(error, doing: action, writing: writing), false) }
        switch probe() {
        case .failure(let reason):
            state.withLock { $0.suspect = true }
            return (messages.failure(reason, doing: action, writing: writing), false)
        case .success:
            replacePool()
            // A timeout with a reachable server means the server is slow: not retried.
            return (messages.failure(error, doing: action, writing: writing), !(error is BlockingTimeout))
        }
    }

    /// One direct connection, outside the pool.
    func probe() -> Result<Void, any Error> {
        let configuration: PostgresConnection.Configuration
        do { configuration = try location.connectionConfiguration() } catch { return .failure(error) }
        let logger = self.logger
        return Result {
            try threads.wait(atMost: .seconds(7)) {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                try await connection.close()
            }
        }
    }

    private func pool() -> Pool {
        state.withLock { state in
            if let pool = state.pool { return pool }
            // The configuration was checked when the engine was made usable (`ensureSchema`).
            let configuration = (try? location.clientConfiguration(statementLimit: callLimit))
                ?? PostgresClient.Configuration(host: location.host, port: location.port, username: location.user,
                                                password: location.password, database: location.database, tls: .disable)
            let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
            let runner = Task(executorPreference: threads) { await client.run() }
            let pool = Pool(client: client, runner: runner)
            state.pool = pool
            return pool
        }
    }

    private func replacePool() {
        let old = state.withLock { state -> Pool? in
            defer { state.pool = nil; state.schemaReady = false }
            return state.pool
        }
        old?.runner.cancel()
    }

    /// Creates or migrates the schema on first use, and refuses a newer one (`PostgresSchema`).
    /// While the database is `suspect`, first checks it with one direct connection.
    func ensureSchema(_ action: String = "open", writing: Bool = false) throws(ServiceFailure) {
        if state.withLock({ $0.suspect }) {
            if case .failure(let reason) = probe() { throw messages.failure(reason, doing: action, writing: writing) }
            replacePool()
            state.withLock { $0.suspect = false }
        }
        guard !state.withLock({ $0.schemaReady }) else { return }
        _ = try location.clientConfiguration(statementLimit: callLimit)
        let logger = self.logger, location = self.location
        do {
            try attempt { connection in try await PostgresSchema.migrate(connection, at: location, logger: logger) }
        } catch {
            if let failure = PostgresFailureText.cause(error) as? ServiceFailure { throw failure }
            let failure = diagnose(error, doing: action, writing: writing)
            guard failure.retry else { throw failure.failure }
            do {
                try attempt { connection in try await PostgresSchema.migrate(connection, at: location, logger: logger) }
            } catch {
                if let failure = PostgresFailureText.cause(error) as? ServiceFailure { throw failure }
                throw messages.failure(error, doing: action, writing: writing)
            }
        }
        state.withLock { $0.schemaReady = true }
    }
}
