import Foundation
@testable import DenKit
import Testing

@Suite("Export signatures and values (DenKit)")
struct ExportSignatureSpec {
    @Test("the notation parses every type, optional names and free spacing, and prints canonically")
    func parses() throws {
        let signature = try ExportSignature(parsing: "  ( f64  amount ,string from,string to )->string ")
        #expect(signature.parameters.map(\.type) == [.f64, .string, .string])
        #expect(signature.parameters.map(\.name) == ["amount", "from", "to"])
        #expect(signature.result == .string)
        #expect(signature.description == "(f64 amount, string from, string to) -> string")
        #expect(try ExportSignature(parsing: "()->void").description == "() -> void")
        #expect(try ExportSignature(parsing: "(i64, bool) -> bool").description == "(i64, bool) -> bool")
    }

    @Test("a malformed signature's error quotes it and shows the notation")
    func malformed() {
        #expect(throws: ExportSignatureError.self) { try ExportSignature(parsing: "(x) -> i64") }
        do {
            _ = try ExportSignature(parsing: "(i64) => i64")
        } catch {
            #expect(error.description.hasPrefix("signature '(i64) => i64' is malformed: '->' and a result type"))
            #expect(error.description.contains("notation: (type name, ...) -> result"))
        }
    }

    @Test("JSON values decode to the narrowest type and encode back as plain JSON")
    func values() throws {
        let decoded = try WireFormat.decode([ExportValue].self, from: Data(#"[1, -2.5, true, "x"]"#.utf8))
        #expect(decoded == [.i64(1), .f64(-2.5), .bool(true), .string("x")])
        #expect(String(decoding: try WireFormat.encode(ExportCallAnswer(result: .f64(0.5))), as: UTF8.self) == #"{"result":0.5,"type":"f64"}"#)
        #expect(String(decoding: try WireFormat.encode(ExportCallAnswer(result: .void)), as: UTF8.self) == #"{"type":"void"}"#)
        #expect(ExportValue.f64(2).description == "2")
        #expect(ExportValue.f64(0.1).description == "0.1")
    }

    @Test("a Swift closure is not a C function: the declaration says so instead of crashing")
    func notCFunction() {
        let offset = 3
        let definition = ExportDefinition("f", "() -> i64", summary: "", function: { (n: Int) in n + offset })
        #expect(definition.problem?.contains("is not a C function") == true)
        #expect(ExportDefinition("Bad", "() -> i64", summary: "", function: cFunction).problem?.contains("export name 'Bad' is not valid") == true)
        #expect(ExportDefinition("ok", "(i64) -> nothing", summary: "", function: cFunction).problem?.contains("result type 'nothing'") == true)
        #expect(ExportDefinition("ok", "() -> i64", summary: "", function: cFunction).problem == nil)
    }
}

private let cFunction: @convention(c) () -> Int32 = { 0 }
