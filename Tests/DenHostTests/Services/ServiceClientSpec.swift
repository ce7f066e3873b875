import CDenABI
@testable import DenHost
@testable import DenSQLiteEngine
@testable import DenKit
import DenTestSupport
import Foundation
import Testing

/// The DenKit clients a module uses (`HostKeyValueStore`, `HostHTTPClient`) against the real
/// services, through a `ServiceHub` endpoint and its C `den_host.call`, as from a plugin.
@Suite("storage and HTTP clients through the host")
struct StorageHTTPClientSpec {
    private struct Jog: Codable, Equatable {
        var id: Int
        var kilometres: Double
        var date: String
    }

    @Test("HostKeyValueStore round-trips text and JSON values")
    func storageRoundTrip() throws {
        let hub = ServiceHub(services: [StorageService(engine: InMemoryStorageEngine())])
        let store: any KeyValueStore = HostKeyValueStore(ServiceTestSupport.hostServices(for: "jogs", hub: hub))

        #expect(try store.get("missing") == nil)
        try store.set("km", forKey: "settings/unit")
        #expect(try store.get("settings/unit") == "km")

        let jog = Jog(id: 1, kilometres: 5.2, date: "2024-05-17")
        try store.setJSON(jog, forKey: "jogs/1")
        #expect(try store.getJSON(Jog.self, forKey: "jogs/1") == jog)
        #expect(try store.getJSON(Jog.self, forKey: "jogs/2") == nil)
        #expect(try store.list(prefix: "jogs/").map(\.key) == ["jogs/1"])
        #expect(try store.list().count == 2)

        #expect(try store.delete("settings/unit"))
        #expect(try !store.delete("settings/unit"))
    }

    @Test("write { batch in } applies all or nothing")
    func storageBatch() throws {
        let hub = ServiceHub(services: [StorageService(engine: InMemoryStorageEngine())])
        let store = HostKeyValueStore(ServiceTestSupport.hostServices(for: "jogs", hub: hub))
        try store.write { batch in
            batch.set("2", forKey: "jogs/next-id")
            try batch.setJSON(Jog(id: 1, kilometres: 3, date: "2024-05-18"), forKey: "jogs/1")
        }
        #expect(try store.list().map(\.key) == ["jogs/1", "jogs/next-id"])

        let error = #expect(throws: HostServiceError.self) {
            try store.write { batch in
                batch.delete("jogs/1")
                batch.set("3", forKey: "jogs/next-id")
                batch.set("x", forKey: "") // refused: nothing of this batch is written
            }
        }
        #expect(error?.status == DEN_ERR_INVALID_ARGUMENT.rawValue32)
        #expect(error?.service == "storage.transaction")
        #expect(error?.message.contains("operations[2]: the key is empty") == true, "\(error?.message ?? "")")
        #expect(try store.get("jogs/next-id") == "2")
        #expect(try store.get("jogs/1") != nil)
    }

    @Test("HostKeyValueStore.increment counts through storage.increment and reports a refusal")
    func storageIncrement() throws {
        let hub = ServiceHub(services: [StorageService(engine: InMemoryStorageEngine())])
        let store: any KeyValueStore = HostKeyValueStore(ServiceTestSupport.hostServices(for: "jogs", hub: hub))
        #expect(try store.increment("ids") == 1)
        #expect(try store.increment("ids") == 2)
        #expect(try store.get("ids") == "2")
        try store.set("two", forKey: "ids")
        let error = #expect(throws: HostServiceError.self) { try store.increment("ids") }
        #expect(error?.status == DEN_ERR_INVALID_ARGUMENT.rawValue32)
        #expect(error?.service == "storage.increment")
        #expect(error?.message.contains("'two', not a whole number") == true, "\(error?.message ?? "")")
    }

    @Test("a stored value that is not the expected JSON type says which key to fix")
    func storageBadJSON() throws {
        let hub = ServiceHub(services: [StorageService(engine: InMemoryStorageEngine())])
        let store = HostKeyValueStore(ServiceTestSupport.hostServices(for: "jogs", hub: hub))
        try store.set("not json", forKey: "jogs/1")
        let error = #expect(throws: ModuleError.self) { try store.getJSON(Jog.self, forKey: "jogs/1") }
        #expect(error?.description.contains("key 'jogs/1'") == true)
    }

    @Test("two modules on one host keep separate stores")
    func storageIsolation() throws {
        let folder = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(folder) }
        let storage = StorageService(engine: SQLiteStorageEngine(directory: folder))
        defer { (storage.engine as? SQLiteStorageEngine)?.close() }
        let hub = ServiceHub(services: [storage])
        let jogs = HostKeyValueStore(ServiceTestSupport.hostServices(for: "jogs", hub: hub))
        let login = HostKeyValueStore(ServiceTestSupport.hostServices(for: "login", hub: hub))
        try jogs.set("jogs-value", forKey: "shared-name")
        try login.set("login-value", forKey: "shared-name")
        #expect(try jogs.get("shared-name") == "jogs-value")
        #expect(try login.get("shared-name") == "login-value")
        #expect(try login.list() == [StorageEntry(key: "shared-name", value: "login-value")])
    }

    @Test("an oversize value comes back as DEN_ERR_INVALID_ARGUMENT with the limit")
    func storageOversize() throws {
        let hub = ServiceHub(services: [StorageService(engine: InMemoryStorageEngine())])
        let store = HostKeyValueStore(ServiceTestSupport.hostServices(for: "jogs", hub: hub))
        let error = #expect(throws: HostServiceError.self) {
            try store.set(String(repeating: "x", count: StorageLimits.maxValueBytes + 1), forKey: "big")
        }
        #expect(error?.status == DEN_ERR_INVALID_ARGUMENT.rawValue32)
        #expect(error?.message.contains("1048576") == true)
    }

    @Test("an unusable data folder comes back as DEN_ERR_SERVICE naming the folder")
    func storageUnavailable() throws {
        let folder = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(folder) }
        let file = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let hub = ServiceHub(services: [StorageService(dataDirectory: file.appendingPathComponent("data"))])
        let store = HostKeyValueStore(ServiceTestSupport.hostServices(for: "jogs", hub: hub))
        let error = #expect(throws: HostServiceError.self) { try store.get("k") }
        #expect(error?.status == DEN_ERR_SERVICE.rawValue32)
        #expect(error?.message.contains(file.path) == true)
    }

    @Test("HostHTTPClient fetches, returns non-2xx answers and reports failures")
    func httpClient() throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let hub = ServiceHub(services: [HTTPService()])
        let client: any HTTPFetching = HostHTTPClient(ServiceTestSupport.hostServices(for: "main", hub: hub))

        let ok = try client.get(server.url("/ok"))
        #expect(ok.status == 200)
        #expect(ok.text == "hello from stub")

        #expect(try client.get(server.url("/status/503"), timeout: .seconds(5)).status == 503)

        let echoed = try client.get(server.url("/headers"), timeout: nil, maxBytes: nil, headers: ["Accept": "text/xml"])
        #expect(try JSONDecoder().decode([String: String].self, from: echoed.body)["accept"] == "text/xml")

        let slow = #expect(throws: HostServiceError.self) {
            try client.get(server.url("/slow?ms=3000"), timeout: .milliseconds(250))
        }
        #expect(slow?.status == DEN_ERR_SERVICE.rawValue32)
        #expect(slow?.message.contains("timed out after 250 ms") == true)

        let big = #expect(throws: HostServiceError.self) {
            try client.get(server.url("/big?bytes=5000"), maxBytes: 1000)
        }
        #expect(big?.message.contains("larger than 1000 bytes") == true)

        let bad = #expect(throws: HostServiceError.self) { try client.get("gopher://example.com/") }
        #expect(bad?.status == DEN_ERR_INVALID_ARGUMENT.rawValue32)
    }
}
