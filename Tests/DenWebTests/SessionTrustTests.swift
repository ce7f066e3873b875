@testable import DenHost
import DenKit
import DenTestSupport
@testable import DenWeb
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// A held session is trusted without a storage read when the browser brings back the revision
/// its last answer came from, and nothing else can have changed it.
@Suite("Browser sessions: no storage read to trust a held session")
struct SessionTrustTests {
    /// The runtime's engine, counting the reads of saved sessions.
    final class CountingEngine: StorageEngine, Sendable {
        let base: any StorageEngine
        let sessionReads = Atomic<Int>(0)

        init(_ base: any StorageEngine) { self.base = base }

        func get(namespace: String, key: String) throws(ServiceFailure) -> String? {
            if namespace == StorageBrowserSessionStore.namespace { sessionReads.add(1, ordering: .relaxed) }
            return try base.get(namespace: namespace, key: key)
        }
        func set(namespace: String, key: String, value: String) throws(ServiceFailure) { try base.set(namespace: namespace, key: key, value: value) }
        func delete(namespace: String, key: String) throws(ServiceFailure) -> Bool { try base.delete(namespace: namespace, key: key) }
        func list(namespace: String, prefix: String) throws(ServiceFailure) -> [StorageEntry] { try base.list(namespace: namespace, prefix: prefix) }
        func apply(namespace: String, operations: [StorageOperation]) throws(ServiceFailure) { try base.apply(namespace: namespace, operations: operations) }
        func increment(namespace: String, key: String) throws(ServiceFailure) -> Int { try base.increment(namespace: namespace, key: key) }
        func namespaces() throws(ServiceFailure) -> [String] { try base.namespaces() }
        func apply(across operations: [NamespacedOperation]) throws(ServiceFailure) { try base.apply(across: operations) }
        func insert(namespace: String, _ insert: StorageInsert) throws(ServiceFailure) -> Int { try base.insert(namespace: namespace, insert) }
        func applyUnsynced(namespace: String, operations: [StorageOperation]) throws(ServiceFailure) {
            try base.applyUnsynced(namespace: namespace, operations: operations)
        }
        func applyUnsynced(namespace: String, operations: [StorageOperation], ifKey key: String, holds expected: String) throws(ServiceFailure) -> Bool {
            try base.applyUnsynced(namespace: namespace, operations: operations, ifKey: key, holds: expected)
        }
        func watchChanges(in namespace: String, _ report: @escaping @Sendable (StorageChange) -> Void) -> Bool {
            base.watchChanges(in: namespace, report)
        }
        func foreignChanges() throws(ServiceFailure) -> UInt64? { try base.foreignChanges() }
        func reportWaitNotices(to report: @escaping @Sendable (String) -> Void) { base.reportWaitNotices(to: report) }
    }

    /// A den serve with the test modules on a SQLite data folder, its engine counted.
    private static func host(_ temp: TemporaryDirectory) -> (WebServer, CountingEngine, DenRuntime) {
        var configuration = HostConfiguration(pluginDirectories: [], cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data"))
        let base = configuration.makeStorageEngine
        let counting = Mutex<CountingEngine?>(nil)
        configuration.makeStorageEngine = { folder in
            let engine = CountingEngine(base(folder))
            counting.withLock { $0 = engine }
            return engine
        }
        let runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins()
        _ = runtime.installInProcess(TestModules.pages(Probe()))
        let server = WebServer(runtime: runtime, configuration: WebConfiguration())
        _ = runtime.storage // made now, so the counter exists
        return (server, counting.withLock { $0! }, runtime)
    }

    @Test("a browser that brings back its revision is answered from memory; one that drops it reads the saved revision each time")
    func revisionCookieSavesTheRead() async throws {
        let temp = try TemporaryDirectory("den-trust")
        let (server, engine, _) = Self.host(temp)
        try await server.makeApplication().test(.router) { client in
            let browser = Browser(client, server)
            let first = try await browser.get("/main")
            #expect(first.status == .ok)
            #expect(first.revisionCookie != nil, "the first answer names the saved revision")
            engine.sessionReads.store(0, ordering: .relaxed)
            for _ in 0..<5 { #expect(try await browser.get("/main").status == .ok) }
            #expect(engine.sessionReads.load(ordering: .relaxed) == 0, "no read while the revision vouches for the copy")

            let forgetful = Browser(client, server, keepsRevision: false)
            forgetful.cookie = browser.cookie
            engine.sessionReads.store(0, ordering: .relaxed)
            for _ in 0..<5 { #expect(try await forgetful.get("/main").status == .ok) }
            #expect(engine.sessionReads.load(ordering: .relaxed) == 5, "one read of the saved revision a request")
        }
    }

    @Test("another process's write makes the next request read the saved copy once, then trust it again")
    func anotherProcessWriting() async throws {
        let temp = try TemporaryDirectory("den-trust")
        let (server, engine, runtime) = Self.host(temp)
        try await server.makeApplication().test(.router) { client in
            let browser = Browser(client, server)
            _ = try await browser.get("/main")
            _ = try await browser.get("/main")
            // `den users` or a second den serve on the same data folder: another connection.
            let other = HostConfiguration(pluginDirectories: [], cacheDirectory: temp.path("cache-2"), dataDirectory: temp.path("data"))
                .makeStorageEngine(temp.path("data"))
            try other.set(namespace: "jogs", key: "anything", value: "1")
            engine.sessionReads.store(0, ordering: .relaxed)
            #expect(try await browser.get("/main").status == .ok)
            #expect(engine.sessionReads.load(ordering: .relaxed) == 1, "read once after the other process wrote")
            for _ in 0..<3 { _ = try await browser.get("/main") }
            #expect(engine.sessionReads.load(ordering: .relaxed) == 1, "trusted again")
            // This process's own writes never count as another's.
            try runtime.storage.set(namespace: "jogs", key: "mine", value: "2")
            _ = try await browser.get("/main")
            #expect(engine.sessionReads.load(ordering: .relaxed) == 1)
        }
    }
}
