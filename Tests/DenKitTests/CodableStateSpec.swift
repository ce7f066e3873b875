import DenKit
import Foundation
import Testing

@Suite("CodableState: a module's hot-swap state as a Codable value with a version")
struct CodableStateSpec {
    struct Draft: Codable, Equatable {
        var title: String
        var count: Int
    }

    final class Holder {
        var draft = Draft(title: "", count: 0)
    }

    func codec(_ holder: Holder, version: Int = 2, migrate: ((Int, Data) throws -> Draft)? = nil,
               check: @escaping (Draft) throws -> Void = { _ in }) -> CodableState<Draft> {
        CodableState(version: version, save: { holder.draft }, load: { try check($0); holder.draft = $0 }, migrate: migrate)
    }

    @Test("snapshot → restore into another instance gives the same value")
    func roundTrip() throws {
        let old = Holder(), new = Holder()
        old.draft = Draft(title: "Morning run", count: 3)
        let bytes = try codec(old).snapshot()
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"state":{"count":3,"title":"Morning run"},"v":2}"#)
        try codec(new).restore(bytes)
        #expect(new.draft == old.draft)
    }

    @Test("a newer version's state is refused, and nothing is applied")
    func newerRefused() throws {
        let holder = Holder()
        let bytes = Data(#"{"v":3,"state":{"title":"x","count":1}}"#.utf8)
        #expect(throws: ModuleError.self) { try codec(holder).restore(bytes) }
        #expect(holder.draft == Draft(title: "", count: 0))
    }

    @Test("an older version is refused without a migration, and migrated with one")
    func olderMigrated() throws {
        let old = Data(#"{"v":1,"state":{"name":"Evening"}}"#.utf8)
        let holder = Holder()
        #expect(throws: ModuleError.self) { try codec(holder).restore(old) }
        let migrating = codec(holder, migrate: { version, data in
            #expect(version == 1)
            let object = try JSONDecoder().decode([String: String].self, from: data)
            return Draft(title: object["name"] ?? "", count: 0)
        })
        try migrating.restore(old)
        #expect(holder.draft == Draft(title: "Evening", count: 0))
    }

    @Test("a migration gets the old state's JSON whatever its shape: big integers exact, numbers, escapes, null, nesting")
    func migrationSeesEveryValue() throws {
        let state = #"{"big":9007199254740993,"u":18446744073709551615,"m":-9223372036854775808,"n":-2.5,"s":"a\"b\\c\u00e9\n","t":true,"z":null,"list":[1,[2,{"k":[]}],{}]}"#
        let old = Data(#"{"v":1,"state":"#.utf8 + Data(state.utf8) + Data("}".utf8))
        let holder = Holder()
        var seen: Data?
        try codec(holder, migrate: { _, data in seen = data; return Draft(title: "m", count: 1) }).restore(old)
        let expected = try JSONSerialization.jsonObject(with: Data(state.utf8)) as? NSDictionary
        let given = try JSONSerialization.jsonObject(with: try #require(seen)) as? NSDictionary
        #expect(given == expected)
        let text = String(decoding: try #require(seen), as: UTF8.self)
        for exact in ["9007199254740993", "18446744073709551615", "-9223372036854775808"] {
            #expect(text.contains(exact), "\(exact): no rounding through Double")
        }
    }

    @Test("an older document whose state is null gives the migration null, not the whole document")
    func migrationOfNull() throws {
        let holder = Holder()
        try codec(holder, migrate: { _, data in
            #expect(String(decoding: data, as: UTF8.self) == "null")
            return Draft(title: "none", count: 0)
        }).restore(Data(#"{"v":1,"state":null}"#.utf8))
        #expect(holder.draft.title == "none")
    }

    @Test("an older document without a \"state\" (a module's own format) reaches the migration as it is")
    func migrationOfAFlatDocument() throws {
        let old = Data(#"{"v":1,"title":"Flat","count":7}"#.utf8)
        let holder = Holder()
        try codec(holder, migrate: { _, data in
            #expect(data == old)
            return try JSONDecoder().decode(Draft.self, from: data)
        }).restore(old)
        #expect(holder.draft == Draft(title: "Flat", count: 7))
    }

    @Test("bytes that are not a state document, or do not decode, are refused with a message")
    func garbageRefused() {
        let holder = Holder()
        for bytes in ["", "[]", #"{"v":2}"#, #"{"v":2,"state":{"title":5}}"#, "\u{0}\u{1}"] {
            #expect(throws: ModuleError.self, "\(bytes)") { try codec(holder).restore(Data(bytes.utf8)) }
        }
        #expect(holder.draft == Draft(title: "", count: 0))
    }

    @Test("load's own check refuses a value the new rules do not accept")
    func loadCheckRefuses() throws {
        let old = Holder(), new = Holder()
        old.draft = Draft(title: "x", count: -1)
        let bytes = try codec(old).snapshot()
        let strict = codec(new, check: { if $0.count < 0 { throw ModuleError.invalidParameter("count must not be negative") } })
        #expect(throws: ModuleError.invalidParameter("count must not be negative")) { try strict.restore(bytes) }
        #expect(new.draft.count == 0)
    }

    @Test("through a VIPERInstance, as the host calls it")
    func throughInstance() throws {
        final class NoView: ModuleView {
            var screen: Screen { Screen(title: "t", elements: []) }
            func handle(_ event: ModuleEvent) {}
        }
        let holder = Holder()
        holder.draft.count = 7
        let instance = VIPERInstance(view: NoView(), navigation: Navigation(), state: codec(holder))
        let bytes = try instance.snapshot()
        let other = Holder()
        try VIPERInstance(view: NoView(), navigation: Navigation(), state: codec(other)).restore(bytes)
        #expect(other.draft.count == 7)
    }
}
