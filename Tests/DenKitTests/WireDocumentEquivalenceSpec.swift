@testable import DenKit
import Foundation
import Testing

/// The hand-written JSON forms (`WireDocument`) held to the Codable ones they stand in for:
/// the same bytes out, and never a document read differently. Whatever the hand-written reader
/// accepts, JSONDecoder must accept with an equal value; what it refuses goes to JSONDecoder.
@Suite("Wire documents: hand-written JSON agrees with Codable")
struct WireDocumentEquivalenceSpec {
    /// JSONEncoder as `WireFormat` configures it: the reference.
    static func codableBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    static func handWrittenBytes<T: WireDocument>(_ value: T) -> [UInt8] {
        var writer = JSONWriter()
        value.write(to: &writer)
        return writer.bytes
    }

    /// The property every document must keep: a hand-written read, when it succeeds, equals
    /// JSONDecoder's (which must then succeed too).
    static func expectAgreement<T: WireDocument & Equatable>(_ type: T.Type, _ bytes: [UInt8],
                                                              sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let parsed = JSONReader.parse(bytes), let fast = try? T(wire: parsed) else { return false }
        let reference = try? JSONDecoder().decode(T.self, from: Data(bytes))
        #expect(reference == fast, "read differently: \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        return true
    }

    static let awkwardText = "quote \" backslash \\ slash / tab \t line\nfeed \u{08}\u{0C}\r nul \u{0} bell \u{07} del \u{7F} é 😀 \u{2028}"

    static let screens: [Screen] = [
        Screen(title: "Everything", elements: [
            .heading("Den"), .text("Plain"), .text("Small", style: .caption), .text(awkwardText, style: .emphasis),
            .field(Field(id: "name", label: "Name")),
            .field(Field(id: "amount", label: "Amount", value: "12.5", kind: .number, placeholder: "0.00", error: "digits only", changes: true)),
            .field(Field(id: "from", label: "From", value: "EUR", kind: .choice, options: ["EUR", "USD"])),
            .field(Field(id: "pin", label: awkwardText, kind: .password)),
            .button(Button(id: "save", label: "Save", role: .primary)), .button(Button(id: "x", label: "X")),
            .link(Link(label: "About", route: "about?x=1/2")),
            .list(ItemList(title: "Runs", items: [.init(title: "5 km", detail: "Monday", route: "jogs/1"), .init(title: "Plain")], emptyText: "None")),
            .list(ItemList(items: [])),
            .table(Table(columns: ["Code", "Rate"], rows: [["USD", "1.08"], [], ["JPY"]])),
            .banner(Banner(.warning, "Careful")), .unsupported(type: "chart"),
        ]),
        Screen(title: "", elements: []),
    ]

    static let replies: [ModuleReply] = [
        ModuleReply(screen: screens[0], effects: [.navigate("jogs/42"), .back, .replace("main"), .openURL("https://example.com/a?b=c")]),
        ModuleReply(screen: screens[1]),
    ]

    static let summaries: [PluginSummary] = {
        var swapped = PluginSummary(id: "jogs", version: "1.2.0", summary: awkwardText, file: "libJogsModule.so",
                                    routes: ["jogs", "jogs/<int:id>"], requiresLogin: ["jogs"], status: .active)
        swapped.generation = 3
        swapped.loadedAt = "2026-11-23T01:02:03Z"
        swapped.retainedImages = 2
        swapped.retainedBytes = 9_000_000_000
        swapped.swapError = "the new file's ABI version is 9"
        swapped.publisher = awkwardText
        swapped.signature = "signed"
        return [swapped,
                PluginSummary(id: nil, version: nil, summary: nil, file: "libBroken.so", routes: [], status: .failed, error: "no entry point"),
                PluginSummary(id: "about", version: "1.0.0", summary: "About", file: "libAboutModule.so", routes: ["about"], status: .active)]
    }()

    static let manifests: [ModuleManifest] = [
        ModuleManifest(id: "main", version: "1.0.0", summary: "Currency converter",
                       routes: [.init("main"), .init("convert/<double:amount>/<string:from>/<string:to>", requiresLogin: true)],
                       settings: [SettingDefinition("rates_url", kind: .url, default: "", help: "Where rates come from", emptyMeans: "stay offline"),
                                  SettingDefinition("timeout", kind: .integer, default: "5", help: "Seconds", minimum: -1, maximum: 60),
                                  SettingDefinition("mode", kind: .choice, default: "a", help: "Mode", options: ["a", "b"])],
                       exports: [.init(name: "convert", signature: "(f64 a) -> f64"), .init(name: "plain")]),
        ModuleManifest(id: "about", version: "1.0.0", routes: [.init("about")]),
        ModuleManifest(id: "empty-exports", version: "2.0.0-beta.1", summary: awkwardText, routes: [], exports: []),
    ]

    static let requests: [BuildRequest] = [
        BuildRequest(route: "convert/12.5/USD/EUR?src=ecb&src=x", pattern: "convert/<double:amount>/<string:from>/<string:to>",
                     parameters: ["amount": "12.5", "from": "USD", "to": "EUR"], query: ["src": "x"],
                     queryValues: ["src": ["ecb", "x"], "B": [], "a_b": ["é"]]),
        BuildRequest(route: "about", pattern: "about", parameters: [:], query: [:]),
    ]

    static let events: [ModuleEvent] = [
        .appear, .action(id: "save", fields: ["amount": "12", "field10": "a", "field9": "b", "Z": awkwardText]), .action(id: "x", fields: [:]),
    ]

    static let changes: [FieldChange] = [FieldChange(field: "amount", fields: ["amount": "1", "from": "EUR"]), FieldChange(field: "a", fields: [:])]

    static let storageEntries: [StorageEntry] = [StorageEntry(key: "jogs/7", value: #"{"id":7,"v":1}"#), StorageEntry(key: awkwardText, value: "")]
    static let storageOperations: [StorageOperation] = [.set(key: "a", value: awkwardText), .delete(key: "jogs/1")]
    static let transactions: [StorageTransactionRequest] = [
        StorageTransactionRequest(operations: storageOperations),
        StorageTransactionRequest(operations: [], insert: StorageInsert(counter: "jogs-counter", prefix: "jogs/", before: #"{"id":"#, after: "}")),
    ]

    // MARK: Same bytes, same values

    @Test("every document is written byte for byte as JSONEncoder writes it, and reads back equal")
    func sameBytes() throws {
        func check<T: WireDocument & Equatable>(_ values: [T]) throws {
            for value in values {
                let bytes = Self.handWrittenBytes(value)
                #expect(bytes == (try Self.codableBytes(value)), "\(String(decoding: bytes, as: UTF8.self))")
                #expect(Self.expectAgreement(T.self, bytes), "the hand-written reader missed its own writing")
                #expect((try? T(wire: JSONReader.parse(bytes)!)) == value)
            }
        }
        try check(Self.screens)
        try check(Self.replies)
        try check(Self.summaries)
        try check([PluginListResponse(plugins: Self.summaries), PluginListResponse(plugins: [])])
        try check([PluginListRequest(), PluginListRequest(fields: []), PluginListRequest(fields: [.id, .loadedAt, .routes])])
        try check(Self.manifests)
        try check(Self.requests)
        try check(Self.events)
        try check(Self.changes)
        try check([Empty()])
        try check(Self.storageEntries)
        try check(Self.storageOperations)
        try check([StorageGetRequest(key: Self.awkwardText)])
        try check([StorageGetAnswer(value: nil), StorageGetAnswer(value: Self.awkwardText), StorageGetAnswer(value: "")])
        try check([StorageSetRequest(key: "k", value: Self.awkwardText)])
        try check([StorageDeleteRequest(key: "k")])
        try check([StorageDeleteAnswer(deleted: true), StorageDeleteAnswer(deleted: false)])
        try check([StorageListRequest(), StorageListRequest(prefix: "jogs/")])
        try check([StorageListAnswer(entries: Self.storageEntries), StorageListAnswer(entries: [])])
        try check(Self.transactions)
        try check([StorageTransactionAnswer(), StorageTransactionAnswer(inserted: 42)])
        try check([StorageIncrementRequest(key: "n")])
        try check([StorageIncrementAnswer(value: 1), StorageIncrementAnswer(value: Int.min)])
        try check([SessionGetRequest(key: "user")])
        try check([SessionGetAnswer(value: nil), SessionGetAnswer(value: "alice")])
        try check([SessionSetRequest(key: "k", value: Self.awkwardText)])
        try check([SessionDeleteRequest(key: "k")])
        try check([SessionDeleteAnswer(deleted: true)])
    }

    @Test("storage and session documents JSONDecoder reads its own way, or refuses, are left to it")
    func missedStorageDocuments() {
        func misses<T: WireDocument & Equatable>(_ type: T.Type, _ json: String) -> Bool { !Self.expectAgreement(type, Array(json.utf8)) }
        #expect(misses(StorageGetAnswer.self, #"{"value":1}"#))
        #expect(misses(StorageGetRequest.self, #"{"key":null}"#))
        #expect(misses(StorageOperation.self, #"{"op":"move","key":"a"}"#))
        #expect(misses(StorageOperation.self, #"{"op":"set","key":"a"}"#))
        #expect(misses(StorageListAnswer.self, #"{"entries":null}"#))
        #expect(misses(StorageListAnswer.self, #"{"entries":[{"key":"a"}]}"#))
        #expect(misses(StorageTransactionRequest.self, #"{"operations":[],"insert":null}"#))
        #expect(misses(StorageTransactionAnswer.self, #"{"inserted":1.0}"#))
        #expect(misses(StorageDeleteAnswer.self, #"{"deleted":"yes"}"#))
        #expect(misses(SessionGetRequest.self, "[]"))
    }

    @Test("a storage request without its optional parts reads as JSONDecoder reads it")
    func optionalStorageParts() {
        #expect(Self.expectAgreement(StorageListRequest.self, Array("{}".utf8)))
        #expect(Self.expectAgreement(StorageTransactionRequest.self, Array(#"{"operations":[]}"#.utf8)))
        #expect(Self.expectAgreement(StorageGetAnswer.self, Array("{}".utf8)))
        #expect(Self.expectAgreement(StorageTransactionAnswer.self, Array("{}".utf8)))
    }

    @Test("an answer with some fields is written the same both ways, and reads back as its projection",
          arguments: [[PluginSummary.Field](), [.id, .version, .summary, .generation, .loadedAt], [.routes, .error, .swapError], [.publisher, .signature],
                      [.requiresLogin, .retainedImages, .retainedBytes]])
    func someFieldsSameBytes(fields: [PluginSummary.Field]) throws {
        let answer = PluginListResponse(plugins: Self.summaries, fields: PluginSummary.Fields(fields))
        let bytes = Self.handWrittenBytes(answer)
        #expect(bytes == (try Self.codableBytes(answer)), "\(String(decoding: bytes, as: UTF8.self))")
        #expect(Self.expectAgreement(PluginListResponse.self, bytes))
        let projected = Self.summaries.map { $0.keeping(PluginSummary.Fields(fields)) }
        #expect(try WireFormat.decode(PluginListResponse.self, from: Data(bytes)).plugins == projected)
    }

    @Test("a plugins.list request whose fields is null or not a list is refused by both readers",
          arguments: [#"{"fields":null}"#, #"{"fields":"id"}"#, #"{"fields":[1]}"#])
    func badFieldsRequest(json: String) {
        #expect(throws: (any Error).self) { try WireFormat.decode(PluginListRequest.self, from: Data(json.utf8)) }
        #expect(throws: (any Error).self) { try JSONDecoder().decode(PluginListRequest.self, from: Data(json.utf8)) }
    }

    // MARK: Documents written by hand, as C and Rust modules write them

    @Test("lenient documents read as JSONDecoder reads them", arguments: [
        // Optional keys left out, unknown keys and element types, unknown enum values, whitespace.
        #"{"v":1,"screen":{"v":1,"title":"T","elements":[{"type":"field","id":"a"},{"type":"button","id":"b"}]}}"#,
        #"{"v":1,"screen":{"v":1,"title":"T","elements":[{"type":"text","text":"x","style":"shouting"},{"type":"banner","text":"b","kind":"odd"}]}}"#,
        #"{"v":1,"screen":{"v":1,"title":"T","elements":[{"type":"field","id":"a","kind":"slider","changes":true}]},"extra":[1,2,{"x":null}]}"#,
        #"{"v":1,"screen":{"v":1,"title":"T","elements":[{"type":"list"},{"type":"chart","data":[1.5,2e3]}]},"effects":[]}"#,
        #"{"v":1,"screen":{"v":1,"title":"T","elements":[]},"effects":[{"type":"teleport","to":"x"},{"type":"back"}]}"#,
        " \n\t{ \"v\" : 1 , \"screen\" : { \"v\" : 1 , \"title\" : \"T\" , \"elements\" : [ ] } } \r\n",
        #"{"v":1,"screen":{"v":1,"title":"\u00e9\ud83d\ude00 \/ \"","elements":[{"type":"heading","text":"\u0000"}]}}"#,
        #"{"v":2,"screen":{"v":7,"title":"T","elements":[]}}"#,
        #"{"v":-0,"screen":{"v":1,"title":"T","elements":[]}}"#,
        // A repeated key: both keep the first value, even when a later one has another type.
        #"{"v":1,"screen":{"v":1,"title":"T","elements":[]},"v":2}"#,
        #"{"v":1,"screen":{"v":1,"title":"A","title":"B","elements":[]},"v":"two"}"#,
    ])
    func lenientReplies(json: String) {
        #expect(Self.expectAgreement(ModuleReply.self, Array(json.utf8)))
    }

    @Test("documents JSONDecoder refuses or reads its own way are left to it", arguments: [
        #"{"v":1.0,"screen":{"v":1,"title":"T","elements":[]}}"#, // a whole number written as a fraction
        #"{"v":1e0,"screen":{"v":1,"title":"T","elements":[]}}"#,
        #"{"v":1,"screen":{"v":1,"title":null,"elements":[]}}"#,
        #"{"v":1,"screen":{"v":1,"title":"T","elements":[{"type":"heading"}]}}"#,
        #"{"v":1,"screen":{"v":1,"title":"T","elements":[{"type":"text","text":"x","style":5}]}}"#,
        #"{"v":1,"screen":{"v":1,"title":"T","elements":[]},"effects":[{"type":"navigate"}]}"#,
        #"{"v":1,"screen":{"v":1,"title":"\ud800","elements":[]}}"#, // lone surrogate
        #"{"v":1,"screen":{"v":1,"title":"a"#, // cut short
        #"{"v":1,"screen":{"v":1,"title":"T","elements":[]}} x"#,
        #"{"v":01,"screen":{"v":1,"title":"T","elements":[]}}"#,
        #"{"v":99999999999999999999,"screen":{"v":1,"title":"T","elements":[]}}"#,
        "{\"v\":1,\"screen\":{\"v\":1,\"title\":\"tab\there\",\"elements\":[]}}",
        #"[{"v":1}]"#,
    ])
    func missedReplies(json: String) {
        #expect(!Self.expectAgreement(ModuleReply.self, Array(json.utf8)), "the hand-written reader should have left this to JSONDecoder")
    }

    @Test("plugins.list entries: repeated keys keep their first value, unknown keys are skipped, as JSONDecoder reads them",
          arguments: [
              #"{"plugins":[{"file":"a.so","status":"active","id":"a","id":"b"}]}"#,
              #"{"plugins":[{"file":"a.so","status":"active","id":"a","id":5}]}"#, // a later value of another type is never read
              #"{"plugins":[{"file":"a.so","status":"active","status":"loading"}]}"#,
              #"{"plugins":[{"file":"a.so","file":"b.so","status":"failed","colour":"red","generation":2}]}"#,
              #"{"plugins":[{"status":"active","file":"a.so","routes":["x"],"routes":[1]}]}"#,
              #"{"plugins":[]}"#,
          ])
    func pluginEntries(json: String) {
        #expect(Self.expectAgreement(PluginListResponse.self, Array(json.utf8)))
    }

    @Test("plugins.list entries the hand-written reader leaves to JSONDecoder: a bad first value, a null, no file or status",
          arguments: [
              #"{"plugins":[{"file":"a.so","status":"loading","status":"active"}]}"#,
              #"{"plugins":[{"file":"a.so","status":"active","id":null}]}"#,
              #"{"plugins":[{"file":"a.so","status":"active","routes":null}]}"#,
              #"{"plugins":[{"status":"active"}]}"#,
              #"{"plugins":[{"file":"a.so"}]}"#,
              #"{"plugins":[{"file":"a.so","status":"active","generation":"2"}]}"#,
          ])
    func missedPluginEntries(json: String) {
        #expect(!Self.expectAgreement(PluginListResponse.self, Array(json.utf8)))
    }

    @Test("events: versions, types and fields as ModuleEvent and FieldChange read them")
    func events() {
        for json in [#"{"type":"appear"}"#, #"{"v":1,"type":"action","id":"go"}"#, #"{"type":"action","id":"go","fields":{"a":"1"}}"#,
                     #"{"type":"action","id":"go","fields":{"a":"1","a":"2"}}"#, #"{"type":"action","id":"go","fields":{"a":"1","a":2}}"#,
                     #"{"type":"appear","type":"action"}"#] {
            #expect(Self.expectAgreement(ModuleEvent.self, Array(json.utf8)), "\(json)")
        }
        for json in [#"{"v":2,"type":"appear"}"#, #"{"type":"vanish"}"#, #"{"type":"action"}"#, #"{"type":"action","id":"go","fields":{"a":1}}"#] {
            #expect(!Self.expectAgreement(ModuleEvent.self, Array(json.utf8)), "\(json)")
        }
        #expect(Self.expectAgreement(FieldChange.self, Array(#"{"type":"change","field":"a"}"#.utf8)))
        #expect(!Self.expectAgreement(FieldChange.self, Array(#"{"type":"appear","field":"a"}"#.utf8)))
    }

    // MARK: Damaged documents

    /// Every single-byte change (replaced, dropped or doubled) of every sample document: the
    /// hand-written reader either leaves it to JSONDecoder or reads it exactly as JSONDecoder does.
    @Test("no damaged document is read differently from JSONDecoder")
    func damagedDocuments() {
        func damage<T: WireDocument & Equatable>(_ values: [T]) -> Int {
            var accepted = 0
            let replacements: [UInt8] = [0x22, 0x5C, 0x2C, 0x7B, 0x7D, 0x5B, 0x5D, 0x3A, 0x30, 0x20, 0x00, 0xFF, 0x6E, 0x2E]
            for value in values {
                let original = Self.handWrittenBytes(value)
                for index in original.indices {
                    var dropped = original
                    dropped.remove(at: index)
                    var doubled = original
                    doubled.insert(original[index], at: index)
                    var variants = [dropped, doubled]
                    for byte in replacements where byte != original[index] {
                        var replaced = original
                        replaced[index] = byte
                        variants.append(replaced)
                    }
                    for variant in variants where Self.expectAgreement(T.self, variant) { accepted += 1 }
                }
            }
            return accepted
        }
        // Some damage leaves a valid document (a changed letter in a title): those were compared.
        #expect(damage(Self.replies) > 0)
        #expect(damage(Self.summaries) > 0)
        #expect(damage(Self.manifests) > 0)
        #expect(damage(Self.requests) > 0)
        #expect(damage(Self.events) > 0)
        #expect(damage(Self.changes) > 0)
        #expect(damage([PluginListResponse(plugins: Self.summaries)]) > 0)
        #expect(damage([StorageListAnswer(entries: Self.storageEntries)]) > 0)
        #expect(damage(Self.transactions) > 0)
        #expect(damage([StorageGetAnswer(value: "v"), StorageGetAnswer(value: nil)]) > 0)
        #expect(damage([SessionGetAnswer(value: "alice")]) > 0)
        _ = damage([Empty()]) // `{}` damaged is never an object again: nothing to compare, nothing may differ
    }
}
