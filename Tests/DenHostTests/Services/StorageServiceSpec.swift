import DenHost
import DenLibraryClients
@testable import DenSQLiteEngine
import DenKit
import DenPostgresEngine
import DenTestSupport
import Foundation
import Testing

/// The engines every storage behaviour is checked against: `library` is the SQLite engine as den
/// reaches it, through the built libDenSQLiteStorage.so and one JSON document each way;
/// `postgres` a fresh database on the test process's PostgreSQL cluster (`PostgresCluster`).
enum StorageEngineKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory, sqlite, library
    /// The library with every call as a JSON document (den_storage_library_call), as a library
    /// without the direct functions is reached.
    case libraryDocuments
    case postgres

    var testDescription: String { rawValue }

    /// A fresh engine and the folder to remove afterwards (nil for memory).
    func make() throws -> (engine: any StorageEngine, folder: URL?) {
        switch self {
        case .inMemory:
            return (InMemoryStorageEngine(), nil)
        case .sqlite:
            let folder = try ServiceTestSupport.temporaryDirectory("den-storage")
            return (SQLiteStorageEngine(directory: folder.appendingPathComponent("data")), folder)
        case .library:
            let folder = try ServiceTestSupport.temporaryDirectory("den-storage")
            let library = try BuildProducts.require(BuildProducts.library("DenSQLiteStorage"))
            return (LibraryStorageEngine(directory: folder.appendingPathComponent("data"), library: library), folder)
        case .libraryDocuments:
            let folder = try ServiceTestSupport.temporaryDirectory("den-storage")
            let library = try BuildProducts.require(BuildProducts.library("DenSQLiteStorage"))
            return (LibraryStorageEngine(directory: folder.appendingPathComponent("data"), library: library, documentsOnly: true), folder)
        case .postgres:
            let cluster = try PostgresCluster.shared()
            return (try PostgresStorageEngine(url: cluster.url(database: try cluster.makeDatabase("storage"))), nil)
        }
    }
}

/// Runs `body` with a `StorageService` over a fresh engine of `kind`, then cleans up.
private func withStorage(_ kind: StorageEngineKind, _ body: (StorageService) throws -> Void) throws {
    let (engine, folder) = try kind.make()
    defer {
        (engine as? SQLiteStorageEngine)?.close()
        if let folder { ServiceTestSupport.remove(folder) }
    }
    try body(StorageService(engine: engine))
}

@discardableResult
private func call(_ service: any HostService, _ operation: String, _ json: String, _ module: String) throws(ServiceFailure) -> String {
    try ServiceTestSupport.call(service, operation, json, as: module)
}

@Suite("storage service")
struct StorageServiceSpec {
    @Test("offers the six storage operations")
    func operations() {
        #expect(Set(StorageService(engine: InMemoryStorageEngine()).operations)
                == ["storage.get", "storage.set", "storage.delete", "storage.list", "storage.transaction", "storage.increment"])
    }

    @Test("a value set can be read back; a missing key reads as null", arguments: StorageEngineKind.allCases)
    func roundTrip(kind: StorageEngineKind) throws {
        try withStorage(kind) { (storage) throws in
            #expect(try call(storage, "storage.get", #"{"key":"settings"}"#, "jogs") == #"{"value":null}"#)
            #expect(try call(storage, "storage.set", #"{"key":"settings","value":"{\"unit\":\"km\"}"}"#, "jogs") == "{}")
            #expect(try call(storage, "storage.get", #"{"key":"settings"}"#, "jogs") == #"{"value":"{\"unit\":\"km\"}"}"#)
        }
    }

    @Test("setting a key again replaces its value", arguments: StorageEngineKind.allCases)
    func replace(kind: StorageEngineKind) throws {
        try withStorage(kind) { (storage) throws in
            try call(storage, "storage.set", #"{"key":"count","value":"1"}"#, "jogs")
            try call(storage, "storage.set", #"{"key":"count","value":"2"}"#, "jogs")
            #expect(try call(storage, "storage.get", #"{"key":"count"}"#, "jogs") == #"{"value":"2"}"#)
            #expect(try call(storage, "storage.list", #"{"prefix":""}"#, "jogs") == #"{"entries":[{"key":"count","value":"2"}]}"#)
        }
    }

    @Test("delete removes a key and says whether it existed", arguments: StorageEngineKind.allCases)
    func delete(kind: StorageEngineKind) throws {
        try withStorage(kind) { (storage) throws in
            try call(storage, "storage.set", #"{"key":"token","value":"abc"}"#, "jogs")
            #expect(try call(storage, "storage.delete", #"{"key":"token"}"#, "jogs") == #"{"deleted":true}"#)
            #expect(try call(storage, "storage.delete", #"{"key":"token"}"#, "jogs") == #"{"deleted":false}"#)
            #expect(try call(storage, "storage.get", #"{"key":"token"}"#, "jogs") == #"{"value":null}"#)
        }
    }

    @Test("empty, multilingual and NUL-containing values survive intact", arguments: StorageEngineKind.allCases)
    func unusualValues(kind: StorageEngineKind) throws {
        try withStorage(kind) { (storage) throws in
            for (index, value) in ["", "héllo wörld 🏃‍♀️ 日本", "before\u{0}after", String(repeating: "x", count: 100_000)].enumerated() {
                let key = "value-\(index)"
                try call(storage, "storage.set", #"{"key":"\#(key)","value":\#(ServiceTestSupport.jsonString(value))}"#, "jogs")
                let answer = try ServiceTestSupport.call(storage, "storage.get", StorageGetRequest(key: key),
                                                         answer: StorageGetAnswer.self)
                #expect(answer.value == value)
            }
        }
    }

    @Test("one module never sees or changes another module's keys", arguments: StorageEngineKind.allCases)
    func namespacing(kind: StorageEngineKind) throws {
        try withStorage(kind) { (storage) throws in
            try call(storage, "storage.set", #"{"key":"token","value":"jogs-secret"}"#, "jogs")
            #expect(try call(storage, "storage.get", #"{"key":"token"}"#, "login") == #"{"value":null}"#)
            #expect(try call(storage, "storage.list", #"{"prefix":""}"#, "login") == #"{"entries":[]}"#)
            #expect(try call(storage, "storage.delete", #"{"key":"token"}"#, "login") == #"{"deleted":false}"#)

            try call(storage, "storage.set", #"{"key":"token","value":"login-secret"}"#, "login")
            try call(storage, "storage.transaction", #"{"operations":[{"op":"delete","key":"token"}]}"#, "main")
            #expect(try call(storage, "storage.get", #"{"key":"token"}"#, "jogs") == #"{"value":"jogs-secret"}"#)
            #expect(try call(storage, "storage.get", #"{"key":"token"}"#, "login") == #"{"value":"login-secret"}"#)
        }
    }

    @Test("a namespace cannot be smuggled in through the request", arguments: StorageEngineKind.allCases)
    func noNamespaceField(kind: StorageEngineKind) throws {
        try withStorage(kind) { (storage) throws in
            try call(storage, "storage.set", #"{"key":"token","value":"jogs-secret"}"#, "jogs")
            // Unknown fields are ignored: the namespace is always the caller's.
            #expect(try call(storage, "storage.get", #"{"key":"token","namespace":"jogs"}"#, "login") == #"{"value":null}"#)
        }
    }

    @Test("list returns the keys with the prefix, sorted by key", arguments: StorageEngineKind.allCases)
    func listing(kind: StorageEngineKind) throws {
        try withStorage(kind) { (storage) throws in
            for key in ["jogs/2", "jogs/10", "jogs/1", "jogz", "settings", "JOGS/upper", "jogs", "a%b", "a_b", "axb", "é/1", "e/1"] {
                try call(storage, "storage.set", #"{"key":"\#(key)","value":"v-\#(key)"}"#, "jogs")
            }
            func keys(_ prefix: String) throws -> [String] {
                try ServiceTestSupport.call(storage, "storage.list", StorageListRequest(prefix: prefix),
                                            answer: StorageListAnswer.self).entries.map(\.key)
            }
            #expect(try keys("jogs/") == ["jogs/1", "jogs/10", "jogs/2"])
            #expect(try keys("jogs") == ["jogs", "jogs/1", "jogs/10", "jogs/2"])
            #expect(try keys("a%") == ["a%b"]) // no LIKE wildcards
            #expect(try keys("a_") == ["a_b"])
            #expect(try keys("é") == ["é/1"])
            #expect(try keys("nothing") == [])
            // Byte-wise UTF-8 order: upper case before lower case, é after every ASCII key.
            #expect(try keys("") == ["JOGS/upper", "a%b", "a_b", "axb", "e/1", "jogs", "jogs/1", "jogs/10", "jogs/2",
                                     "jogz", "settings", "é/1"])
            // A missing prefix lists everything.
            let all = try call(storage, "storage.list", "{}", "jogs")
            #expect(all.contains(#"{"key":"settings","value":"v-settings"}"#))

            let entries = try ServiceTestSupport.call(storage, "storage.list", StorageListRequest(prefix: "jogs/1"),
                                                      answer: StorageListAnswer.self).entries
            #expect(entries == [StorageEntry(key: "jogs/1", value: "v-jogs/1"), StorageEntry(key: "jogs/10", value: "v-jogs/10")])
        }
    }

    @Test("a transaction applies its operations in order", arguments: StorageEngineKind.allCases)
    func transaction(kind: StorageEngineKind) throws {
        try withStorage(kind) { (storage) throws in
            try call(storage, "storage.set", #"{"key":"old","value":"1"}"#, "jogs")
            let answer = try call(storage, "storage.transaction", #"""
                {"operations":[{"op":"set","key":"a","value":"1"},{"op":"set","key":"b","value":"2"},
                 {"op":"delete","key":"a"},{"op":"delete","key":"old"},{"op":"set","key":"b","value":"3"}]}
                """#, "jogs")
            #expect(answer == "{}")
            #expect(try call(storage, "storage.list", "{}", "jogs") == #"{"entries":[{"key":"b","value":"3"}]}"#)
            #expect(try call(storage, "storage.transaction", #"{"operations":[]}"#, "jogs") == "{}")
        }
    }

    @Test("a transaction with a bad operation in the middle applies nothing", arguments: StorageEngineKind.allCases)
    func atomicity(kind: StorageEngineKind) throws {
        try withStorage(kind) { (storage) throws in
            try call(storage, "storage.set", #"{"key":"balance","value":"10"}"#, "jogs")
            let tooBig = String(repeating: "x", count: StorageLimits.maxValueBytes + 1)
            let request = StorageTransactionRequest(operations: [
                .set(key: "balance", value: "0"), .set(key: "new", value: "1"),
                .set(key: "huge", value: tooBig), .delete(key: "balance"),
            ])
            let failure = #expect(throws: ServiceFailure.self) {
                try ServiceTestSupport.call(storage, "storage.transaction", request, answer: Empty.self)
            }
            #expect(failure?.kind == .invalidArgument)
            #expect(failure?.message.contains("operations[2]") == true)
            #expect(failure?.message.contains("nothing was written") == true)
            #expect(try call(storage, "storage.list", "{}", "jogs") == #"{"entries":[{"key":"balance","value":"10"}]}"#)
        }
    }

    @Test("keys and values at the limits are accepted", arguments: StorageEngineKind.allCases)
    func limits(kind: StorageEngineKind) throws {
        try withStorage(kind) { (storage) throws in
            let key = String(repeating: "k", count: 510) + "é" // 512 bytes
            let value = String(repeating: "v", count: StorageLimits.maxValueBytes)
            _ = try ServiceTestSupport.call(storage, "storage.set", StorageSetRequest(key: key, value: value), answer: Empty.self)
            let answer = try ServiceTestSupport.call(storage, "storage.get", StorageGetRequest(key: key), answer: StorageGetAnswer.self)
            #expect(answer.value?.utf8.count == StorageLimits.maxValueBytes)
        }
    }

    @Test("bad requests are refused with a message saying what is wrong", arguments: [
        ("storage.get", "{", "malformed request"),
        ("storage.get", "{}", "missing key 'key'"),
        ("storage.get", #"{"key":42}"#, "key"),
        ("storage.get", #"{"key":""}"#, "the key is empty"),
        ("storage.set", #"{"key":"a"}"#, "missing key 'value'"),
        ("storage.set", #"{"key":"a","value":null}"#, "value"),
        ("storage.delete", "[]", "malformed request"),
        ("storage.list", #"{"prefix":7}"#, "prefix"),
        ("storage.transaction", #"{"operations":[{"op":"rename","key":"a"}]}"#, "unknown op 'rename'"),
        ("storage.transaction", #"{"operations":[{"op":"set","key":"a"}]}"#, "missing key 'value'"),
        ("storage.transaction", #"{"operations":[{"op":"delete","key":""}]}"#, "operations[0]: the key is empty"),
        ("storage.set", #"{"key":"a\u0000b","value":"v"}"#, "NUL"),
        ("storage.increment", "{}", "missing key 'key'"),
        ("storage.increment", #"{"key":""}"#, "the key is empty"),
    ])
    func badRequests(operation: String, json: String, expected: String) throws {
        let storage = StorageService(engine: InMemoryStorageEngine())
        let failure = #expect(throws: ServiceFailure.self) { try call(storage, operation, json, "jogs") }
        #expect(failure?.kind == .invalidArgument)
        #expect(failure?.message.contains(expected) == true, "\(failure?.message ?? "no failure")")
        #expect(failure?.message.hasPrefix(operation) == true)
    }

    @Test("an oversize key or value is refused with the limit in the message", arguments: StorageEngineKind.allCases)
    func oversize(kind: StorageEngineKind) throws {
        try withStorage(kind) { (storage) throws in
            let longKey = String(repeating: "k", count: StorageLimits.maxKeyBytes + 1)
            let keyFailure = #expect(throws: ServiceFailure.self) {
                try ServiceTestSupport.call(storage, "storage.set", StorageSetRequest(key: longKey, value: "v"), answer: Empty.self)
            }
            #expect(keyFailure?.message.contains("513 bytes") == true)
            #expect(keyFailure?.message.contains("at most 512 bytes") == true)

            let bigValue = String(repeating: "v", count: StorageLimits.maxValueBytes + 1)
            let valueFailure = #expect(throws: ServiceFailure.self) {
                try ServiceTestSupport.call(storage, "storage.set", StorageSetRequest(key: "k", value: bigValue), answer: Empty.self)
            }
            #expect(valueFailure?.kind == .invalidArgument)
            #expect(valueFailure?.message.contains("at most 1048576 bytes") == true)
            #expect(try call(storage, "storage.list", "{}", "jogs") == #"{"entries":[]}"#)

            let prefixFailure = #expect(throws: ServiceFailure.self) {
                try ServiceTestSupport.call(storage, "storage.list", StorageListRequest(prefix: longKey), answer: StorageListAnswer.self)
            }
            #expect(prefixFailure?.kind == .invalidArgument)
        }
    }

    @Test("increment counts from 1 per key and per module, and stores the number as text", arguments: StorageEngineKind.allCases)
    func increment(kind: StorageEngineKind) throws {
        try withStorage(kind) { (storage) throws in
            #expect(try call(storage, "storage.increment", #"{"key":"user/alice/jogs-last-id"}"#, "jogs") == #"{"value":1}"#)
            #expect(try call(storage, "storage.increment", #"{"key":"user/alice/jogs-last-id"}"#, "jogs") == #"{"value":2}"#)
            #expect(try call(storage, "storage.increment", #"{"key":"user/bob/jogs-last-id"}"#, "jogs") == #"{"value":1}"#)
            #expect(try call(storage, "storage.increment", #"{"key":"user/alice/jogs-last-id"}"#, "main") == #"{"value":1}"#)
            #expect(try call(storage, "storage.get", #"{"key":"user/alice/jogs-last-id"}"#, "jogs") == #"{"value":"2"}"#)
            // A counter written by storage.set (or a negative one) goes on from its value.
            try call(storage, "storage.set", #"{"key":"n","value":"-2"}"#, "jogs")
            #expect(try call(storage, "storage.increment", #"{"key":"n"}"#, "jogs") == #"{"value":-1}"#)
        }
    }

    @Test("increment refuses a value that is not a whole number, says what is stored, and leaves it",
          arguments: StorageEngineKind.allCases)
    func incrementRefusesText(kind: StorageEngineKind) throws {
        try withStorage(kind) { (storage) throws in
            for value in ["five", "", "1.5", " 7", "+3", "9223372036854775807"] {
                try call(storage, "storage.set", #"{"key":"count","value":"\#(value)"}"#, "jogs")
                let failure = #expect(throws: ServiceFailure.self) {
                    try call(storage, "storage.increment", #"{"key":"count"}"#, "jogs")
                }
                #expect(failure?.kind == .invalidArgument)
                #expect(failure?.message.hasPrefix("storage.increment: the value under key 'count'") == true, "\(failure?.message ?? "")")
                #expect(failure?.message.contains("nothing was written") == true)
                #expect(try call(storage, "storage.get", #"{"key":"count"}"#, "jogs") == #"{"value":"\#(value)"}"#)
            }
        }
    }

    @Test("an unknown operation is reported as not found")
    func unknownOperation() {
        let storage = StorageService(engine: InMemoryStorageEngine())
        let failure = #expect(throws: ServiceFailure.self) { try call(storage, "storage.drop", "{}", "jogs") }
        #expect(failure?.kind == .notFound)
        #expect(failure?.message.contains("storage.get") == true)
    }
}
