import CDenABI
@testable import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

/// Calling a real C plugin's exports through libffi, every type and every way a call can go wrong.
@Suite("Calling exports through libffi")
struct ExportCallTests {
    let fixture: ExportFixture

    init() throws {
        fixture = try ExportFixture()
    }

    @Test("the fixture loads with all its exports, named <module>.<function>, signatures in canonical form")
    func registered() throws {
        let record = try #require(fixture.runtime.record("libDenFixtureExports.so"))
        #expect(record.isActive, "\(String(describing: record.error))")
        let names = fixture.runtime.exports.map(\.name)
        #expect(names.contains("exporter.add") && names.contains("exporter.session_user"))
        #expect(names == names.sorted())
        let length = try #require(fixture.runtime.exports.first { $0.name == "exporter.length" })
        #expect(length.signature.description == "(string text) -> i64", "spaces in the declaration are normalised")
        #expect(length.summary == "Bytes in a string")
    }

    @Test("every parameter and result type, from command-line words")
    func everyTypeFromWords() {
        #expect(fixture.call("exporter.add", "40", "2").value == .i64(42))
        #expect(fixture.call("exporter.add", "-9223372036854775808", "0").value == .i64(.min))
        #expect(fixture.call("exporter.scale", "1.5", "-4").value == .f64(-6))
        #expect(fixture.call("exporter.negate", "true").value == .bool(false))
        #expect(fixture.call("exporter.negate", "false").value == .bool(true))
        #expect(fixture.call("exporter.greet", "Ada Lovelace").value == .string("Hello, Ada Lovelace!"))
        #expect(fixture.call("exporter.length", "héllo").value == .i64(6), "UTF-8 bytes reach C")
        #expect(fixture.call("exporter.length", "").value == .i64(0))
        #expect(fixture.call("exporter.touch").value == .void)
        #expect(fixture.call("exporter.mixed", "-7", "2.5", "true", "x y").value == .string("a=-7 b=2.5 c=true d=x y"))
    }

    @Test("every type from JSON through exports.call; an integer is accepted for an f64")
    func everyTypeFromJSON() {
        #expect(fixture.service(#"{"name":"exporter.add","arguments":[40,2]}"#).body == #"{"result":42,"type":"i64"}"#)
        #expect(fixture.service(#"{"name":"exporter.scale","arguments":[3,0.5]}"#).body == #"{"result":1.5,"type":"f64"}"#)
        #expect(fixture.service(#"{"name":"exporter.negate","arguments":[false]}"#).body == #"{"result":true,"type":"bool"}"#)
        #expect(fixture.service(#"{"name":"exporter.greet","arguments":["\"Bo\""]}"#).body == #"{"result":"Hello, \"Bo\"!","type":"string"}"#)
        #expect(fixture.service(#"{"name":"exporter.touch","arguments":[]}"#).body == #"{"type":"void"}"#)
        #expect(fixture.service(#"{"name":"exporter.mixed","arguments":[1,2,false,"z"]}"#).body == #"{"result":"a=1 b=2 c=false d=z","type":"string"}"#)
    }

    @Test("the wrong number of arguments shows the expected signature", arguments: [[], ["1"], ["1", "2", "3"]])
    func wrongCount(words: [String]) throws {
        let failure = try #require(fixture.runtime.callExport("exporter.add", words: words).failure)
        #expect(failure.kind == .badArguments)
        #expect(failure.message == "exporter.add takes 2 arguments, \(words.count) given; expected exporter.add(i64 a, i64 b) -> i64")
    }

    @Test("a word of the wrong type names the argument, the type and the signature",
          arguments: [("exporter.add", ["1.5", "2"], "argument 1 (a) must be i64"),
                      ("exporter.add", ["1", "9223372036854775808"], "argument 2 (b) must be i64"),
                      ("exporter.scale", ["nan", "1"], "argument 1 (x) must be f64"),
                      ("exporter.scale", ["1", "inf"], "argument 2 (factor) must be f64"),
                      ("exporter.scale", ["one", "1"], "'one' is not"),
                      ("exporter.negate", ["yes"], "argument 1 (value) must be bool, true or false")])
    func wrongTypeWords(name: String, words: [String], expected: String) throws {
        let failure = try #require(fixture.runtime.callExport(name, words: words).failure)
        #expect(failure.kind == .badArguments)
        #expect(failure.message.contains(expected), "\(failure.message)")
        #expect(failure.message.contains("Expected \(name)("), "\(failure.message)")
    }

    @Test("a JSON value of the wrong type is DEN_ERR_INVALID_ARGUMENT with the signature",
          arguments: [(#"{"name":"exporter.add","arguments":[1.5,2]}"#, "argument 1 (a) must be i64"),
                      (#"{"name":"exporter.negate","arguments":[1]}"#, "argument 1 (value) must be bool"),
                      (#"{"name":"exporter.greet","arguments":[7]}"#, "argument 1 (name) must be string"),
                      (#"{"name":"exporter.greet","arguments":["a\u0000b"]}"#, "a string holding NUL"),
                      (#"{"name":"exporter.length","arguments":[true]}"#, "the bool true is not"),
                      (#"{"name":"exporter.add","arguments":[1]}"#, "takes 2 arguments, 1 given"),
                      (#"{"name":"exporter.add","arguments":[[1],2]}"#, "malformed request"),
                      (#"{"name":"exporter.add"}"#, "malformed request")])
    func wrongTypeJSON(request: String, expected: String) {
        let answer = fixture.service(request)
        #expect(answer.status == Int32(DEN_ERR_INVALID_ARGUMENT.rawValue))
        #expect(answer.body.contains(expected), "\(answer.body)")
    }

    @Test("an unknown export or module, or a malformed name, says what exists")
    func unknown() throws {
        let function = try #require(fixture.call("exporter.nope").failure)
        #expect(function.kind == .unknownExport && function.status == 2)
        #expect(function.message.hasPrefix("no export 'exporter.nope': module 'exporter' exports add, call_other,"), "\(function.message)")
        let module = try #require(fixture.call("ghost.convert").failure)
        #expect(module.message.contains("no module 'ghost' exports anything; modules with exports: exporter"), "\(module.message)")
        let malformed = try #require(fixture.call("convert").failure)
        #expect(malformed.status == 1)
        #expect(malformed.message.contains("write <module>.<function>"))
        let service = fixture.service(#"{"name":"ghost.convert","arguments":[]}"#)
        #expect(service.status == Int32(DEN_ERR_NOT_FOUND.rawValue))
        #expect(service.body.hasPrefix("no export"))
    }

    @Test("a failing export's status and message reach the caller; the result it set is released, not used")
    func failing() throws {
        let failure = try #require(fixture.call("exporter.fail", "no such thing").failure)
        #expect(failure.kind == .failed)
        #expect(failure.status == 2)
        #expect(failure.message == "exporter.fail failed (DEN_ERR_NOT_FOUND): no such thing")
        let service = fixture.service(#"{"name":"exporter.fail","arguments":["gone"]}"#)
        #expect(service.status == Int32(DEN_ERR_NOT_FOUND.rawValue))
        #expect(service.body == "exporter.fail failed (DEN_ERR_NOT_FOUND): gone")
    }

    @Test("a status den_module.h does not define, without a message, is still a clear failure")
    func silentFailure() throws {
        let failure = try #require(fixture.call("exporter.fail_silently").failure)
        #expect(failure.status == 42)
        #expect(failure.message == "exporter.fail_silently failed (status 42): it gave no message")
        #expect(fixture.service(#"{"name":"exporter.fail_silently","arguments":[]}"#).status == Int32(DEN_ERR_INTERNAL.rawValue))
    }

    @Test("results that break the calling convention are refused, naming the export",
          arguments: [("exporter.no_release", "without a release function"),
                      ("exporter.not_utf8", "not valid UTF-8"),
                      ("exporter.not_a_number", "nan, which is not a finite f64"),
                      ("exporter.huge", "string results are limited to 4 MiB")])
    func misbehaving(name: String, expected: String) throws {
        let failure = try #require(fixture.runtime.callExport(name, words: []).failure)
        #expect(failure.kind == .misbehaved)
        #expect(failure.message.hasPrefix(name))
        #expect(failure.message.contains(expected), "\(failure.message)")
        // The host is still fine afterwards.
        #expect(fixture.call("exporter.add", "1", "1").value == .i64(2))
    }

    @Test("an error message without a release function is shown and said to have leaked")
    func leakyError() throws {
        let failure = try #require(fixture.call("exporter.leaky_error").failure)
        #expect(failure.message == "exporter.leaky_error failed (DEN_ERR_INTERNAL): a message without release (its message had no release function, so it was leaked)")
    }

    @Test("an export past the call limit is given up: its caller gets the failure once it returns, and its late result is discarded")
    func timeout() throws {
        // A limit of its own: the other tests keep the default, so a busy machine cannot time
        // out a call that returns. (`den call` ends the process at the limit instead: its
        // hand-off, seen in ExportsEndToEndTests.)
        let fixture = try ExportFixture(timeout: .seconds(1))
        let failure = try #require(fixture.call("exporter.nap", "3000").failure)
        #expect(failure.kind == .gaveUp)
        #expect(failure.message.contains("exporter.nap did not return within "), "\(failure.message)")
        #expect(fixture.call("exporter.nap", "1").value == .void)
    }

    @Test("concurrent calls from many threads all get their own results")
    func concurrent() async {
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    fixture.runtime.callExport("exporter.add", arguments: [.i64(Int64(index)), .i64(1000)]).value == .i64(Int64(index) + 1000)
                }
            }
            var all = true
            for await ok in group { all = all && ok }
            #expect(all)
        }
    }

    @Test("exports.list lists every export; the request must be an object")
    func list() {
        let (status, body) = fixture.runtime.services.call("exports.list", request: Data("{}".utf8), caller: ServiceCaller(moduleID: "x"))
        #expect(status == DEN_OK)
        let answer = try? WireFormat.decode(ExportListAnswer.self, from: body)
        #expect(answer?.exports.first { $0.name == "exporter.add" } == ExportSummary(name: "exporter.add", module: "exporter", signature: "(i64 a, i64 b) -> i64", summary: "Adds two whole numbers"))
        #expect(fixture.runtime.services.call("exports.list", request: Data("[]".utf8), caller: ServiceCaller(moduleID: "x")).status == DEN_ERR_INVALID_ARGUMENT)
        #expect(fixture.runtime.services.call("exports.list", request: Data(#"{"later":[1,{"a":2}]}"#.utf8), caller: ServiceCaller(moduleID: "x")).status == DEN_OK,
                "keys a later revision adds are ignored")
    }
}
