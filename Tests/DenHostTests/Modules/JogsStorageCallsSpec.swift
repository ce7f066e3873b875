import DenHost
import DenKit
import DenTestSupport
import Foundation
import Synchronization
import Testing

/// A storage engine that writes down which of its methods are called, per namespace.
private final class CountingStorageEngine: StorageEngine, Sendable {
    let inner = InMemoryStorageEngine()
    let calls = Mutex<[String]>([])

    private func note(_ method: String, _ namespace: String) {
        calls.withLock { $0.append("\(namespace): \(method)") }
    }

    func get(namespace: String, key: String) throws(ServiceFailure) -> String? {
        note("get", namespace)
        return try inner.get(namespace: namespace, key: key)
    }
    func set(namespace: String, key: String, value: String) throws(ServiceFailure) {
        note("set", namespace)
        try inner.set(namespace: namespace, key: key, value: value)
    }
    func delete(namespace: String, key: String) throws(ServiceFailure) -> Bool {
        note("delete", namespace)
        return try inner.delete(namespace: namespace, key: key)
    }
    func list(namespace: String, prefix: String) throws(ServiceFailure) -> [StorageEntry] {
        note("list", namespace)
        return try inner.list(namespace: namespace, prefix: prefix)
    }
    func apply(namespace: String, operations: [StorageOperation]) throws(ServiceFailure) {
        note("apply", namespace)
        try inner.apply(namespace: namespace, operations: operations)
    }
    func increment(namespace: String, key: String) throws(ServiceFailure) -> Int {
        note("increment", namespace)
        return try inner.increment(namespace: namespace, key: key)
    }
    func namespaces() throws(ServiceFailure) -> [String] {
        try inner.namespaces()
    }
    func apply(across operations: [NamespacedOperation]) throws(ServiceFailure) {
        try inner.apply(across: operations)
    }
    func insert(namespace: String, _ insert: StorageInsert) throws(ServiceFailure) -> Int {
        note("insert", namespace)
        return try inner.insert(namespace: namespace, insert)
    }
}

@Suite("Jogs' storage calls through the host")
struct JogsStorageCallsSpec {
    @Test("saving a new jog writes it with one storage call, an insert, and the record holds its id")
    func oneCallPerInsert() throws {
        let temp = try TemporaryDirectory("den-jogs-calls")
        let plugins = try temp.folder("plugins")
        try temp.copy(try BuildProducts.require(BuildProducts.library("JogsModule")), into: plugins)
        let engine = CountingStorageEngine()
        var configuration = HostConfiguration(pluginDirectories: [plugins], bundledDirectory: nil,
                                              cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data"))
        configuration.auth.hashParameters = .testing
        configuration.makeStorageEngine = { _ in engine }
        let runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins()
        _ = try runtime.accounts.register(username: "alice", password: "correct horse")
        let session = runtime.makeSession()
        let answer = runtime.services.call("auth.login", request: Data(#"{"username":"alice","password":"correct horse"}"#.utf8),
                                           caller: ServiceCaller(moduleID: "login", session: session.id))
        #expect(String(decoding: answer.body, as: UTF8.self).contains(#""outcome":"ok""#))

        _ = session.open("jogs/new")
        engine.calls.withLock { $0.removeAll() }
        let saved = session.send(action: "save", fields: ["date": "2026-01-05", "distance": "5.25", "duration": "28:30"])
        #expect(saved.route == "jogs/1", "\(saved.errors)")

        let jogsWrites = engine.calls.withLock { $0 }.filter { $0.hasPrefix("jogs: ") && !$0.hasSuffix(": get") && !$0.hasSuffix(": list") }
        #expect(jogsWrites == ["jogs: insert"])
        let record = try #require(try engine.inner.get(namespace: "jogs", key: "user/alice/jogs/1"))
        #expect(record.contains(#""id":1"#), "\(record)")
        #expect(try engine.inner.get(namespace: "jogs", key: "user/alice/jogs-last-id") == "1")
    }
}
