import CDenABI
import CFFI
import DenExports
import DenKit
import Testing

/// libffi is opened on first use, not linked (LibFFI.swift): what that first use finds.
@Suite("libffi, opened when the first export is registered")
struct LibFFISpec {
    @Test("the system's libffi loads, with the functions and types an export call needs")
    func loads() throws {
        let ffi = try LibFFI.load(LibFFI.fileNames).get()
        let types = [ffi.sint64, ffi.double, ffi.pointer, ffi.sint32, ffi.uint8].map { (Int32($0.pointee.type), $0.pointee.size) }
        #expect(types.map(\.0) == [FFI_TYPE_SINT64, FFI_TYPE_DOUBLE, FFI_TYPE_POINTER, FFI_TYPE_SINT32, FFI_TYPE_UINT8])
        #expect(types.map(\.1) == [8, 8, 8, 4, 1])
    }

    @Test("a later name is tried when an earlier one is missing")
    func fallsBack() throws {
        #expect(throws: Never.self) { try LibFFI.load(["libffi-that-is-not-there.so.99"] + LibFFI.fileNames).get() }
    }

    @Test("with no libffi, the failure names every file tried and the package to install")
    func missing() {
        let result = LibFFI.load(["libffi-gone.so.1", "libffi-gone.so"])
        guard case .failure(let failure) = result else {
            Issue.record("loaded: \(result)")
            return
        }
        #expect(failure.description.contains("libffi-gone.so.1") && failure.description.contains("libffi-gone.so:"), "\(failure)")
        #expect(failure.description.hasSuffix("install it (Debian and Ubuntu: apt-get install libffi-dev)"), "\(failure)")
    }

    @Test("an export's call cannot be prepared without libffi: the error says why, not that libffi refused it")
    func noLibraryForACall() throws {
        let signature = try ExportSignature(parsing: "(i64 a) -> i64")
        let missing = LibFFI.LoadFailure(description: "libffi could not be loaded")
        #expect(throws: FFICallInterface.Failure.noLibrary(missing)) { try FFICallInterface(signature, libffi: .failure(missing)) }
        let prepared = try FFICallInterface(signature)
        #expect(prepared.argumentCount == 4, "host, a, the result pointer, the error pointer")
    }
}

@Suite("An export declared where libffi is missing")
struct ExportWithoutLibFFISpec {
    @Test("is refused with the loader's reason and what to install, not as a bad signature")
    func refused() {
        let missing = LibFFI.load(["libffi-gone.so.1"])
        let function: den_export_fn = {}
        let result = ExportDeclaration.check(name: "convert", signature: "(f64 amount) -> string", summary: "Converts",
                                             function: function, existing: [], libffi: missing)
        guard case .failure(let refusal) = result else {
            Issue.record("accepted: \(result)")
            return
        }
        #expect(refusal.status == DEN_ERR_INTERNAL)
        #expect(refusal.problem.hasPrefix("export 'convert' cannot be called: libffi could not be loaded (libffi-gone.so.1"), "\(refusal.problem)")
        #expect(refusal.problem.hasSuffix("apt-get install libffi-dev)"), "\(refusal.problem)")
    }
}
