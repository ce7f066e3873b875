import Foundation
import DenKit
import Testing
@testable import JogsModule

@Suite("Jog storage: layout, ids and transactions")
struct StorageJogRepositoryTests {
    let input = JogInput(date: day("2026-01-05"), distanceMetres: 5250, durationSeconds: 1710)

    @Test("a jog is one versioned JSON record under user/<name>/jogs/<id>; the id counter sits beside it")
    func layout() throws {
        let store = InMemoryKeyValueStore()
        let repository = StorageJogRepository(store)
        _ = try repository.add(input, for: "alice")
        #expect(store.entries == [
            StorageEntry(key: "user/alice/jogs-last-id", value: "1"),
            StorageEntry(key: "user/alice/jogs/1",
                         value: #"{"date":"2026-01-05","distance_m":5250,"duration_s":1710,"id":1,"v":1}"#),
        ])
        // Everything under user/alice/: `den users delete alice` removes it all.
        #expect(store.entries.allSatisfy { $0.key.hasPrefix("user/alice/") })
    }

    @Test("add takes an id from storage.increment, then writes the record in one transaction")
    func addUsesIncrementAndTransaction() throws {
        let spy = SpyKeyValueStore()
        let jog = try StorageJogRepository(spy).add(input, for: "alice")
        #expect(jog == input.jog(id: 1))
        let record = try StoredJog(jog).encoded()
        #expect(spy.writes == [.increment("user/alice/jogs-last-id"),
                               .transaction([.set(key: "user/alice/jogs/1", value: record)])])
    }

    @Test("replace writes through a transaction, and only a jog that exists")
    func replace() throws {
        let spy = SpyKeyValueStore()
        let repository = StorageJogRepository(spy)
        let jog = try repository.add(input, for: "alice")
        var changed = jog
        changed.distanceMetres = 6000
        #expect(try repository.replace(changed, for: "alice"))
        #expect(spy.writes.last == .transaction([.set(key: "user/alice/jogs/1", value: try StoredJog(changed).encoded())]))
        #expect(try repository.jog(1, of: "alice") == changed)

        let before = spy.writes.count
        #expect(try !repository.replace(changed, for: "bob"), "bob has no jog 1")
        #expect(try !repository.replace(Jog(id: 7, date: day("2026-01-05"), distanceMetres: 1, durationSeconds: 1), for: "alice"))
        #expect(spy.writes.count == before, "nothing written for a jog that does not exist")
    }

    @Test("a failed transaction leaves no jog behind, and the next add still gets a fresh id")
    func failedTransaction() throws {
        let spy = SpyKeyValueStore()
        spy.fail("transaction")
        #expect(throws: TestFailure.self) { try StorageJogRepository(spy).add(input, for: "alice") }
        #expect(try spy.inner.list(prefix: "user/alice/jogs/").isEmpty)
        // The used id is skipped, never reused.
        let working = StorageJogRepository(spy.inner)
        #expect(try working.add(input, for: "alice").id == 2)
    }

    @Test("delete removes only the owner's record and says whether there was one")
    func delete() throws {
        let store = InMemoryKeyValueStore()
        let repository = StorageJogRepository(store)
        _ = try repository.add(input, for: "alice")
        #expect(try !repository.delete(1, of: "bob"))
        #expect(try repository.jog(1, of: "alice") != nil)
        #expect(try repository.delete(1, of: "alice"))
        #expect(try !repository.delete(1, of: "alice"))
        #expect(try !repository.delete(0, of: "alice"))
        #expect(try !repository.delete(-3, of: "alice"))
    }

    @Test("a counter reset behind existing jogs never overwrites one")
    func counterBehind() throws {
        let store = InMemoryKeyValueStore()
        let repository = StorageJogRepository(store)
        _ = try repository.add(input, for: "alice")
        _ = try repository.add(input, for: "alice")
        try store.set("0", forKey: "user/alice/jogs-last-id")
        #expect(try repository.add(input, for: "alice").id == 3)
        #expect(try repository.jogs(of: "alice").jogs.map(\.id).sorted() == [1, 2, 3])
    }

    @Test("damaged or foreign records are reported as unreadable and kept as they are", arguments: [
        ("user/alice/jogs/2", "not json"),
        ("user/alice/jogs/2", #"{"v":2,"id":2,"date":"2026-01-05","distance_m":1,"duration_s":1}"#),
        ("user/alice/jogs/2", #"{"v":1,"id":3,"date":"2026-01-05","distance_m":1,"duration_s":1}"#),
        ("user/alice/jogs/2", #"{"v":1,"id":2,"date":"5 Jan","distance_m":1,"duration_s":1}"#),
        ("user/alice/jogs/2", #"{"v":1,"id":2,"date":"2026-01-05","distance_m":0,"duration_s":1}"#),
        ("user/alice/jogs/2", #"{"v":1,"id":2,"date":"2026-01-05","distance_m":1,"duration_s":9999999}"#),
        ("user/alice/jogs/draft", #"{"v":1,"id":2,"date":"2026-01-05","distance_m":1,"duration_s":1}"#),
    ])
    func unreadable(key: String, value: String) throws {
        let store = InMemoryKeyValueStore([key: value])
        let repository = StorageJogRepository(store)
        _ = try repository.add(input, for: "alice")
        let collection = try repository.jogs(of: "alice")
        #expect(collection.jogs.map(\.id) == [1])
        #expect(collection.unreadableKeys == [key])
        #expect(try store.get(key) == value, "left as it was")
    }

    @Test("a record is written byte for byte as JSONEncoder writes it, and read back as JSONDecoder reads it", arguments: [
        Jog(id: 1, date: day("2026-01-05"), distanceMetres: 5250, durationSeconds: 1710),
        Jog(id: 123_456_789_012, date: day("1999-12-31"), distanceMetres: 1, durationSeconds: JogLimits.maxDurationSeconds),
    ])
    func plainForm(jog: Jog) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let reference = String(decoding: try encoder.encode(StoredJog(jog)), as: UTF8.self)
        #expect(try StoredJog(jog).encoded() == reference)
        #expect(try StoredJog.decode(reference, expectedID: jog.id) == jog)
    }

    @Test("records in any other JSON form read as JSONDecoder reads them", arguments: [
        #"{ "date":"2026-01-05","distance_m":5250,"duration_s":1710,"id":2,"v":1}"#,
        #"{"v":1,"id":2,"date":"2026-01-05","distance_m":5250,"duration_s":1710}"#,
        #"{"date":"2026-01-05","distance_m":5250,"duration_s":1710,"id":2,"v":1}"#,
        #"{"date":"2026-01-05","distance_m":5250,"duration_s":1710,"id":2,"v":1,"note":"x"}"#,
        #"{"date":"2026-01-05","distance_m":5250,"duration_s":1710,"id":2,"v":1}  "#,
    ])
    func otherForms(text: String) throws {
        #expect(try StoredJog.decode(text, expectedID: 2) == Jog(id: 2, date: day("2026-01-05"), distanceMetres: 5250, durationSeconds: 1710))
    }

    @Test("a record in the written form but with numbers JSON does not allow, or cut short, is refused", arguments: [
        #"{"date":"2026-01-05","distance_m":05250,"duration_s":1710,"id":2,"v":1}"#,
        #"{"date":"2026-01-05","distance_m":5250,"duration_s":1710,"id":2,"v":"#,
        #"{"date":"2026-01-05","distance_m":5250,"duration_s":1710,"id":2,"v":1}}"#,
        #"{"date":"2026-01-05","distance_m":-5250,"duration_s":1710,"id":2,"v":1}"#,
        #"{"date":"2026-01-05","distance_m":5250,"duration_s":1710,"id":99999999999999999999,"v":1}"#,
    ])
    func refusedForms(text: String) {
        #expect(throws: StoredJogError.self) { try StoredJog.decode(text, expectedID: 2) }
    }

    @Test("reading one damaged jog throws; it is not shown as another jog")
    func unreadableOne() throws {
        let repository = StorageJogRepository(InMemoryKeyValueStore(["user/alice/jogs/2": "{}"]))
        #expect(throws: StoredJogError.self) { try repository.jog(2, of: "alice") }
        #expect(try repository.jog(3, of: "alice") == nil)
    }
}
