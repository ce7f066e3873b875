import CDenABI
@testable import DenKit
import Foundation
import Testing

/// How `DenModule.entry` hands a module's exports to the registrar (ABI revision 2).
@Suite("DenKit registers a module's exports")
struct ExportRegistrationSpec {
    static let answer: @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32 = { _, result, error in
        DenExport.i64(result, error) { 42 }
    }

    static func module(_ exports: [ExportDefinition]) -> ModuleDefinition {
        ModuleDefinition(id: "calc", version: "1.0.0", summary: "", routes: [], exports: exports)
    }

    @Test("each declaration reaches add_export after describe, in order")
    func registers() {
        let side = FakeHostSide()
        let status = side.enter(Self.module([ExportDefinition("answer", "() -> i64", summary: "42", function: Self.answer),
                                             ExportDefinition("again", "() -> i64", summary: "", function: Self.answer)]))
        #expect(status == Int32(DEN_OK.rawValue))
        #expect(side.exports == ["answer () -> i64", "again () -> i64"])
    }

    @Test("a declaration DenKit can tell is wrong refuses the load and logs why")
    func refusesBadDeclaration() {
        let side = FakeHostSide()
        let status = side.enter(Self.module([ExportDefinition("answer", "() -> integer", summary: "", function: Self.answer)]))
        #expect(status == Int32(DEN_ERR_INVALID_ARGUMENT.rawValue))
        #expect(side.exports.isEmpty)
        #expect(side.serviceCalls.contains { $0.service == "log" && $0.request.contains("declares an export wrongly") })
    }

    @Test("on a revision-1 host the module loads without its exports, and says so")
    func olderHost() {
        let side = FakeHostSide(abiRevision: 1)
        let status = side.enter(Self.module([ExportDefinition("answer", "() -> i64", summary: "", function: Self.answer)]))
        #expect(status == Int32(DEN_OK.rawValue))
        #expect(side.exports.isEmpty)
        #expect(side.serviceCalls.contains { $0.request.contains("has no exports (revision 2)") })
    }

    @Test("DenExport writes results and turns thrown errors into a status and a message")
    func conventions() {
        var number: Int64 = 0
        #expect(DenExport.i64(&number, nil) { 7 } == 0 && number == 7)
        var error = den_owned(ptr: nil, len: 0, release: nil)
        let status = withUnsafeMutablePointer(to: &error) { pointer in
            DenExport.string(nil, pointer) { throw ExportFailure.notFound("no such currency") }
        }
        #expect(status == 2)
        #expect(String(decoding: OwnedBuffer.take(&error), as: UTF8.self) == "no such currency")
        var text = den_owned(ptr: nil, len: 0, release: nil)
        _ = withUnsafeMutablePointer(to: &text) { DenExport.string($0, nil) { "héllo" } }
        #expect(text.release != nil, "a string result always carries its release function")
        #expect(String(decoding: OwnedBuffer.take(&text), as: UTF8.self) == "héllo")
        var flag = false
        #expect(DenExport.bool(&flag, nil) { true } == 0 && flag)
        var real = 0.0
        #expect(DenExport.f64(&real, nil) { throw ModuleError.invalidParameter("bad") } == 1)
        #expect(DenExport.void(nil) {} == 0)
    }
}
