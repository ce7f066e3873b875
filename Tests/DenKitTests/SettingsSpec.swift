import CDenABI
@testable import DenKit
import Foundation
import Testing

/// Module settings: the definitions' rules, the declaration sent at load, and reading values.
@Suite("Module settings (SettingDefinition, settings.declare, ModuleSettings)")
struct SettingsSpec {
    let url = SettingDefinition("rates_url", kind: .url, default: "https://example.org/r.xml", help: "Where.",
                                emptyMeans: "offline")
    let seconds = SettingDefinition("fetch_timeout", kind: .integer, default: "10", help: "How long.", minimum: 1, maximum: 60)

    @Test("values are checked against the declared rule, and the refusal says what is allowed", arguments: [
        ("not-a-url", false), ("ftp://x.org/r", false), ("https://", false), ("http://h/r.xml", true), ("", true),
        ("https://ex ample.org", false),
    ])
    func urlRule(value: String, allowed: Bool) {
        #expect((url.problem(with: value) == nil) == allowed)
        if !allowed { #expect(url.problem(with: value)?.contains("takes an http:// or https:// URL") == true) }
    }

    @Test("integers stay within min and max", arguments: [("0", false), ("1", true), ("60", true), ("61", false),
                                                          ("ten", false), ("", false), ("1.5", false), ("+5", false)])
    func integerRule(value: String, allowed: Bool) {
        #expect((seconds.problem(with: value) == nil) == allowed)
    }

    @Test("choices, booleans and control characters")
    func otherRules() {
        let choice = SettingDefinition("mode", kind: .choice, default: "a", help: "", options: ["a", "b"])
        #expect(choice.problem(with: "b") == nil)
        #expect(choice.problem(with: "c")?.contains("one of a, b") == true)
        let flag = SettingDefinition("on", kind: .boolean, default: "true", help: "")
        #expect(flag.problem(with: "yes") != nil)
        let text = SettingDefinition("name", kind: .string, default: "x", help: "")
        #expect(text.problem(with: "a\u{1B}[31m") != nil)
    }

    @Test("control characters are refused in ASCII and beyond; other characters are not", arguments: [
        ("plain", true), ("tab\there", false), ("line\nbreak", false), ("del\u{7F}", false), ("nul\u{0}", false),
        ("café", true), ("café\u{85}", false), ("日本\u{9F}語", false), ("emoji 🦊", true), ("zero\u{200B}width", true),
    ])
    func controlCharacters(value: String, allowed: Bool) {
        let text = SettingDefinition("name", kind: .string, default: "x", help: "")
        #expect((text.problem(with: value) == nil) == allowed, "\(value.unicodeScalars.map { $0.value })")
        if !allowed { #expect(text.problem(with: value)?.contains("without control characters") == true) }
    }

    @Test("a declaration with a bad name, a duplicate or a default its rule refuses is refused")
    func declarationProblems() {
        #expect(SettingsDeclaration(settings: [url, seconds]).problem == nil)
        #expect(SettingsDeclaration(settings: [url, url]).problem?.contains("declared twice") == true)
        let badName = SettingDefinition("Rates URL", kind: .string, default: "", help: "", emptyMeans: "none")
        #expect(SettingsDeclaration(settings: [badName]).problem?.contains("not valid") == true)
        let badDefault = SettingDefinition("n", kind: .integer, default: "99", help: "", minimum: 1, maximum: 60)
        #expect(SettingsDeclaration(settings: [badDefault]).problem?.contains("default") == true)
    }

    @Test("the declaration's JSON uses the documented keys")
    func wire() throws {
        let json = String(decoding: try WireFormat.encode(SettingsDeclaration(settings: [seconds])), as: UTF8.self)
        #expect(json == #"{"settings":[{"default":"10","help":"How long.","max":60,"min":1,"name":"fetch_timeout","type":"integer"}],"v":1}"#)
    }

    @Test("the entry point declares the module's settings with settings.declare, after describe")
    func entryDeclares() throws {
        let side = FakeHostSide()
        let module = ModuleDefinition(id: "m", version: "1.0.0", summary: "", routes: [], settings: [url, seconds])
        #expect(side.enter(module) == Int32(DEN_OK.rawValue))
        let call = try #require(side.serviceCalls.first)
        #expect(call.service == "settings.declare")
        let declaration = try WireFormat.decode(SettingsDeclaration.self, from: Data(call.request.utf8))
        #expect(declaration.settings == [url, seconds])
    }

    @Test("a module without settings makes no call; a bad declaration fails the entry point")
    func entryWithoutOrBad() {
        let side = FakeHostSide()
        #expect(side.enter(ModuleDefinition(id: "m", version: "1.0.0", summary: "", routes: [])) == Int32(DEN_OK.rawValue))
        #expect(side.serviceCalls.isEmpty)
        let bad = FakeHostSide()
        let module = ModuleDefinition(id: "m", version: "1.0.0", summary: "", routes: [], settings: [url, url])
        #expect(bad.enter(module) == Int32(DEN_ERR_INVALID_ARGUMENT.rawValue))
    }

    @Test("a stored value is used when valid; a refused one falls back to the default and says why")
    func reading() {
        let store = InMemoryKeyValueStore(["config.fetch_timeout": " 25 ", "config.rates_url": "nope"])
        let settings = ModuleSettings([url, seconds], store: store)
        #expect(settings.value("fetch_timeout") == .init(value: "25", isDefault: false))
        let refused = settings.value("rates_url")
        #expect(refused.value == "https://example.org/r.xml")
        #expect(refused.problem?.contains("'nope' is not allowed") == true)
        #expect(ModuleSettings([seconds], store: InMemoryKeyValueStore()).value("fetch_timeout") == .init(value: "10", isDefault: true))
    }
}
