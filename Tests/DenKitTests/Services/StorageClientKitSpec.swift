import CDenABI
@testable import DenKit
import Foundation
import Synchronization
import Testing

@Suite("storage messages and in-memory store")
struct StorageClientKitSpec {
    private func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try WireFormat.encode(value), as: UTF8.self)
    }

    @Test("requests and answers have the documented JSON")
    func wireFormat() throws {
        #expect(try json(StorageGetRequest(key: "k")) == #"{"key":"k"}"#)
        #expect(try json(StorageGetAnswer(value: nil)) == #"{"value":null}"#)
        #expect(try json(StorageGetAnswer(value: "v")) == #"{"value":"v"}"#)
        #expect(try json(StorageSetRequest(key: "k", value: "v")) == #"{"key":"k","value":"v"}"#)
        #expect(try json(StorageDeleteAnswer(deleted: true)) == #"{"deleted":true}"#)
        #expect(try json(StorageListRequest(prefix: "jogs/")) == #"{"prefix":"jogs/"}"#)
        #expect(try json(StorageListAnswer(entries: [StorageEntry(key: "a", value: "1")])) == #"{"entries":[{"key":"a","value":"1"}]}"#)
        #expect(try json(StorageTransactionRequest(operations: [.set(key: "a", value: "1"), .delete(key: "b")]))
                == #"{"operations":[{"key":"a","op":"set","value":"1"},{"key":"b","op":"delete"}]}"#)
    }

    @Test("decoding is lenient where the documents allow it and precise where they do not")
    func decoding() throws {
        #expect(try WireFormat.decode(StorageListRequest.self, from: Data("{}".utf8)).prefix == "")
        #expect(try WireFormat.decode(StorageGetAnswer.self, from: Data("{}".utf8)).value == nil)
        let operations = try WireFormat.decode(StorageTransactionRequest.self, from: Data(
            #"{"operations":[{"op":"set","key":"a","value":"1"},{"op":"delete","key":"b","value":"ignored"}]}"#.utf8)).operations
        #expect(operations == [.set(key: "a", value: "1"), .delete(key: "b")])

        let error = #expect(throws: DecodingError.self) {
            try WireFormat.decode(StorageOperation.self, from: Data(#"{"op":"merge","key":"a"}"#.utf8))
        }
        #expect(error.map(WireFormat.describe)?.contains("unknown op 'merge'") == true)
    }

    @Test("limits explain themselves")
    func limits() {
        #expect(StorageLimits.problem(withKey: "ok") == nil)
        #expect(StorageLimits.problem(withKey: "")?.contains("empty") == true)
        #expect(StorageLimits.problem(withKey: String(repeating: "é", count: 257))?.contains("514 bytes") == true)
        #expect(StorageLimits.problem(withKey: String(repeating: "é", count: 256)) == nil)
        #expect(StorageLimits.problem(withKey: "a\u{0}b")?.contains("NUL") == true)
        #expect(StorageLimits.problem(withValue: String(repeating: "v", count: 1 << 20), forKey: "k") == nil)
        #expect(StorageLimits.problem(withValue: String(repeating: "v", count: (1 << 20) + 1), forKey: "k")?
                    .contains("at most 1048576 bytes") == true)
    }

    @Test("the in-memory store behaves like the host's")
    func inMemory() throws {
        let store: any KeyValueStore = InMemoryKeyValueStore(["seed": "1"])
        #expect(try store.get("seed") == "1")
        try store.set("b", forKey: "list/b")
        try store.set("a", forKey: "list/a")
        try store.set("É", forKey: "list/É")
        try store.set("Z", forKey: "list/Z")
        #expect(try store.list(prefix: "list/").map(\.key) == ["list/Z", "list/a", "list/b", "list/É"])
        #expect(try store.delete("list/a"))
        #expect(try !store.delete("list/a"))

        let error = #expect(throws: HostServiceError.self) { try store.set("v", forKey: "") }
        #expect(error?.status == DEN_ERR_INVALID_ARGUMENT.rawValue32)
        #expect(error?.service == "storage.set")
    }

    @Test("a batch with a bad operation writes nothing, in memory too")
    func inMemoryBatch() throws {
        let store = InMemoryKeyValueStore()
        try store.write { batch in
            batch.set("1", forKey: "a")
            try batch.setJSON([1, 2, 3], forKey: "numbers")
        }
        #expect(try store.getJSON([Int].self, forKey: "numbers") == [1, 2, 3])

        #expect(throws: HostServiceError.self) {
            try store.write { batch in
                batch.delete("a")
                batch.set(String(repeating: "x", count: StorageLimits.maxValueBytes + 1), forKey: "b")
            }
        }
        #expect(store.entries.map(\.key) == ["a", "numbers"])

        // A block that throws writes nothing either.
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.write { batch in
                batch.delete("a")
                throw Stop()
            }
        }
        #expect(try store.get("a") == "1")
    }

    @Test("increment: the JSON, counting in memory, the refusals, and no duplicates across threads")
    func increment() throws {
        #expect(try json(StorageIncrementRequest(key: "ids")) == #"{"key":"ids"}"#)
        #expect(try json(StorageIncrementAnswer(value: 42)) == #"{"value":42}"#)

        let store = InMemoryKeyValueStore(["text": "abc", "max": String(Int.max)])
        #expect(try store.increment("ids") == 1)
        #expect(try store.increment("ids") == 2)
        #expect(try store.get("ids") == "2")
        let notNumber = #expect(throws: HostServiceError.self) { try store.increment("text") }
        #expect(notNumber?.service == "storage.increment")
        #expect(notNumber?.message.contains("'abc', not a whole number") == true)
        #expect(try store.get("text") == "abc")
        let atMaximum = #expect(throws: HostServiceError.self) { try store.increment("max") }
        #expect(atMaximum?.message.contains("largest whole number") == true)
        #expect(throws: HostServiceError.self) { try store.increment("") }

        let handed = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 100) { _ in
            let value = (try? store.increment("shared")) ?? -1
            handed.withLock { $0.append(value) }
        }
        #expect(handed.withLock { $0.sorted() } == Array(1...100))
    }

    @Test("a store written before increment existed refuses it instead of counting unsafely")
    func incrementDefault() {
        struct OldStore: KeyValueStore {
            func get(_ key: String) throws -> String? { nil }
            func set(_ value: String, forKey key: String) throws {}
            func delete(_ key: String) throws -> Bool { false }
            func list(prefix: String) throws -> [StorageEntry] { [] }
            func transaction(_ operations: [StorageOperation]) throws {}
        }
        let error = #expect(throws: ModuleError.self) { try OldStore().increment("ids") }
        #expect(error?.description.contains("does not implement increment") == true)
    }

    @Test("without a host, every call fails with a clear error")
    func noHost() {
        let store = HostKeyValueStore(.unavailable)
        let error = #expect(throws: HostServiceError.self) { try store.get("k") }
        #expect(error?.service == "storage.get")
        #expect(error?.message == "no host is attached")
    }
}
