import CDenABI
@testable import DenHost
import DenKit
import Foundation
import Testing

/// `den_registrar.add_export` (ABI revision 2) driven through the real C callbacks.
@Suite("Declaring exports through den_registrar")
struct ExportRegistrationTests {
    static let function: den_export_fn = {}

    func register(_ body: (UnsafePointer<den_registrar>) -> Void) -> RegistrationRecorder {
        let recorder = RegistrationRecorder()
        recorder.withRegistrar(body)
        return recorder
    }

    func describe(_ registrar: UnsafePointer<den_registrar>) -> Int32 {
        registrar.pointee.describe(registrar.pointee.ctx, "calc", "1.0.0", "summary")
    }

    func export(_ registrar: UnsafePointer<den_registrar>, _ name: String, _ signature: String,
                function: den_export_fn? = ExportRegistrationTests.function) -> Int32 {
        registrar.pointee.add_export(registrar.pointee.ctx, name, signature, "a summary", function)
    }

    @Test("good declarations are recorded with parsed signatures")
    func recorded() {
        var statuses: [Int32] = []
        let recorder = register { registrar in
            statuses = [describe(registrar), export(registrar, "convert", "(f64 amount, string from, string to) -> string"),
                        export(registrar, "ping", "()->void"), export(registrar, "x_2", "(i64, bool b) -> bool")]
        }
        #expect(statuses == [0, 0, 0, 0])
        #expect(recorder.problems.isEmpty)
        #expect(recorder.exports.map(\.function) == ["convert", "ping", "x_2"])
        #expect(recorder.exports.map(\.signature.description) == ["(f64 amount, string from, string to) -> string", "() -> void", "(i64, bool b) -> bool"])
        #expect(recorder.exports.map(\.interface.argumentCount) == [6, 2, 5])
    }

    @Test("malformed signatures are refused with DEN_ERR_INVALID_ARGUMENT and the reason",
          arguments: [("f64 -> string", "must start with '('"),
                      ("(f64 amount -> string", "not closed with ')'"),
                      ("(f64 amount)", "'->' and a result type must follow"),
                      ("(f64) -> double", "the result type 'double' is not one of"),
                      ("(text s) -> i64", "parameter 1 has the type 'text'"),
                      ("(void) -> i64", "parameter 1 has the type 'void'"),
                      ("(i64 a,) -> i64", "parameter 2 is empty"),
                      ("(i64 a b) -> i64", "must be a type and at most one name"),
                      ("(i64 Amount) -> i64", "parameter name 'Amount' must be"),
                      ("(" + Array(repeating: "i64", count: 17).joined(separator: ",") + ") -> void", "17 parameters; at most 16"),
                      ("() -> " + String(repeating: " ", count: 600) + "void", "longer than 512 bytes")])
    func malformed(signature: String, reason: String) {
        var status: Int32 = 0
        let recorder = register { registrar in
            _ = describe(registrar)
            status = export(registrar, "f", signature)
        }
        #expect(status == Int32(DEN_ERR_INVALID_ARGUMENT.rawValue))
        #expect(recorder.exports.isEmpty)
        #expect(recorder.problems.first?.contains(reason) == true, "\(recorder.problems)")
        #expect(recorder.problems.first?.hasPrefix("export 'f': signature") == true)
    }

    @Test("bad names, NULL arguments, and a call before describe are refused",
          arguments: ["Convert", "1st", "with-dash", "", String(repeating: "a", count: 65), "naïve"])
    func badNames(name: String) {
        var status: Int32 = 0
        let recorder = register { registrar in
            _ = describe(registrar)
            status = export(registrar, name, "() -> void")
        }
        #expect(status == Int32(DEN_ERR_INVALID_ARGUMENT.rawValue))
        #expect(recorder.problems.first?.contains("is not valid (1-64 characters of a-z, 0-9 and '_', starting with a letter)") == true, "\(recorder.problems)")
    }

    @Test("a NULL function and a call before describe are refused")
    func nullAndEarly() {
        var statuses: [Int32] = []
        let early = register { registrar in statuses.append(export(registrar, "f", "() -> void")) }
        #expect(early.problems == ["add_export was called before describe"])
        let null = register { registrar in
            _ = describe(registrar)
            statuses.append(export(registrar, "f", "() -> void", function: nil))
        }
        #expect(null.problems.first?.contains("NULL") == true)
        #expect(statuses == [1, 1])
    }

    @Test("a duplicate name is DEN_ERR_CONFLICT; the first declaration stays")
    func duplicate() {
        var statuses: [Int32] = []
        let recorder = register { registrar in
            statuses = [describe(registrar), export(registrar, "f", "() -> void"), export(registrar, "f", "(i64) -> i64")]
        }
        #expect(statuses == [0, 0, Int32(DEN_ERR_CONFLICT.rawValue)])
        #expect(recorder.exports.map(\.signature.description) == ["() -> void"])
        #expect(recorder.problems == ["export 'f' was declared twice; each export name must be unique in its module"])
    }

    @Test("add_export after den_module_entry returned is refused and changes nothing")
    func late() {
        var kept: den_registrar?
        let recorder = register { registrar in
            _ = describe(registrar)
            kept = registrar.pointee
        }
        let status = kept!.add_export(kept!.ctx, "later", "() -> void", "", Self.function)
        #expect(status == Int32(DEN_ERR_INVALID_ARGUMENT.rawValue))
        #expect(recorder.exports.isEmpty)
    }
}
