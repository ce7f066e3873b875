import CDenABI
@preconcurrency import CFFI
import DenKit

/// libffi's description of one export's C type (den_module.h, den_export_fn), prepared once at
/// registration with `ffi_prep_cif` and used for every call. Immutable after `init`; its memory
/// is never freed, like the plugin image whose function it describes.
package final class FFICallInterface: @unchecked Sendable {
    package let cif: UnsafeMutablePointer<ffi_cif>
    /// host, the declared parameters, the result pointer (unless void), the error pointer.
    package let argumentCount: Int
    private let ffi: LibFFI

    /// Why an export's call cannot be prepared.
    package enum Failure: Error, Equatable {
        /// libffi is not there (`LibFFI.shared`).
        case noLibrary(LibFFI.LoadFailure)
        /// libffi refused the description (it never should for these types).
        case refused
    }

    package init(_ signature: ExportSignature, libffi: Result<LibFFI, LibFFI.LoadFailure> = LibFFI.shared) throws(Failure) {
        let ffi: LibFFI
        switch libffi {
        case .success(let loaded): ffi = loaded
        case .failure(let failure): throw .noLibrary(failure)
        }
        var types: [UnsafeMutablePointer<ffi_type>?] = [ffi.pointer]
        for parameter in signature.parameters {
            let type: UnsafeMutablePointer<ffi_type>? = switch parameter.type {
            case .i64: ffi.sint64
            case .f64: ffi.double
            case .bool: ffi.uint8
            case .string, .void: ffi.pointer
            }
            types.append(type)
        }
        if signature.result != .void { types.append(ffi.pointer) }
        types.append(ffi.pointer)
        let argumentTypes = UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>.allocate(capacity: types.count)
        argumentTypes.initialize(from: types, count: types.count)
        let cif = UnsafeMutablePointer<ffi_cif>.allocate(capacity: 1)
        let status = ffi.prepareCall(cif, den_ffi_default_abi(), UInt32(types.count), ffi.sint32, argumentTypes)
        guard status == FFI_OK else {
            argumentTypes.deallocate()
            cif.deallocate()
            throw .refused
        }
        self.cif = cif
        self.argumentCount = types.count
        self.ffi = ffi
    }

    /// Calls `function` with `arguments` (one pointer to each argument's storage) and returns
    /// its int32_t status.
    package func call(_ function: den_export_fn, _ arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Int32 {
        // libffi widens an integer result to ffi_arg; the low 32 bits are the int32_t.
        var returned: ffi_arg = 0
        ffi.call(cif, function, &returned, arguments)
        return Int32(truncatingIfNeeded: returned)
    }
}
