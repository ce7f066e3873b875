import DenHost
import DenKit
import DenLibraryClients
import DenTestSupport
import Foundation
import Testing

/// What `StorageServiceSpec` does not show: how the library is found, what happens when it cannot
/// be, and that the wire documents carry every call and every failure whole.
@Suite("SQLite storage through libDenSQLiteStorage.so")
struct LibraryStorageEngineSpec {
    @Test("a missing library fails every call with the file it looked for and how to get it back; nothing is created")
    func missingLibrary() throws {
        let folder = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(folder) }
        let engine = LibraryStorageEngine(directory: folder.appendingPathComponent("data"),
                                          library: folder.appendingPathComponent("libDenSQLiteStorage.so"))
        for _ in 0..<2 {
            #expect {
                try engine.set(namespace: "main", key: "k", value: "v")
            } throws: { error in
                let failure = error as? ServiceFailure
                return failure?.kind == .unavailable && failure?.message.contains(folder.appendingPathComponent("libDenSQLiteStorage.so").path) == true
                    && failure?.message.contains("Scripts/build.sh") == true && failure?.message.contains("DEN_STORAGE_LIBRARY") == true
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("data").path))
    }

    @Test("a library without the two functions is refused, naming them")
    func wrongLibrary() throws {
        let folder = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(folder) }
        let engine = LibraryStorageEngine(directory: folder, library: try BuildProducts.require(BuildProducts.library("DenHTTPTransport")))
        #expect {
            _ = try engine.get(namespace: "main", key: "k")
        } throws: { error in
            (error as? ServiceFailure)?.message.contains("den_storage_library_open") == true
        }
    }

    @Test("the engine's own failures cross whole: an empty key is refused with SQLite engine's words and kind")
    func failuresCross() throws {
        let folder = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(folder) }
        let library = try BuildProducts.require(BuildProducts.library("DenSQLiteStorage"))
        let engine = LibraryStorageEngine(directory: folder, library: library)
        var direct: ServiceFailure?
        do { try InMemoryStorageEngine().set(namespace: "main", key: "", value: "v") } catch { direct = error }
        var crossed: ServiceFailure?
        do { try engine.set(namespace: "main", key: "", value: "v") } catch { crossed = error }
        #expect(crossed != nil && crossed?.kind == direct?.kind, "\(String(describing: crossed)) against \(String(describing: direct))")
        #expect(try engine.namespaces().isEmpty, "nothing was written")
    }

    @Test("letting go of the engine closes its database: the log is folded into storage.sqlite and removed")
    func closesWhenReleased() throws {
        let folder = try ServiceTestSupport.temporaryDirectory("den-storage")
        defer { ServiceTestSupport.remove(folder) }
        let library = try BuildProducts.require(BuildProducts.library("DenSQLiteStorage"))
        let log = folder.appendingPathComponent("storage.sqlite-wal").path
        do {
            let engine = LibraryStorageEngine(directory: folder, library: library)
            try engine.set(namespace: "main", key: "k", value: "kept")
            #expect(FileManager.default.fileExists(atPath: log), "an open database keeps its log")
        }
        #expect(!FileManager.default.fileExists(atPath: log), "closed when released")
        #expect(try LibraryStorageEngine(directory: folder, library: library).get(namespace: "main", key: "k") == "kept")
    }

    @Test("every call and every answer survives its JSON document", arguments: [
        StorageLibraryCall.get(namespace: "main", key: "k\u{0}é"),
        .set(namespace: "main", key: "k", value: "v\n\"x\""),
        .delete(namespace: "jogs", key: "jogs/1"),
        .list(namespace: "jogs", prefix: "jogs/"),
        .apply(namespace: "jogs", operations: [.set(key: "a", value: "1"), .delete(key: "b")]),
        .increment(namespace: "jogs", key: "next"),
        .namespaces,
        .applyAcross([NamespacedOperation(namespace: "main", operation: .delete(key: "x"))]),
    ])
    func callsRoundTrip(call: StorageLibraryCall) throws {
        let decoded = try JSONDecoder().decode(StorageLibraryCall.self, from: JSONEncoder().encode(call))
        #expect(decoded == call)
        let answer = call.perform(on: InMemoryStorageEngine())
        #expect(try JSONDecoder().decode(StorageLibraryAnswer.self, from: JSONEncoder().encode(answer)) == answer)
    }
}
