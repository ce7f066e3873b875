import CDenABI
@preconcurrency import CFFI
import DenKit

/// libffi's description of one export's C type (den_module.h, den_export_fn), prepared once at
/// registration with `ffi_prep_cif` and used for every call. Immutable after `init`; its memory
/// is never freed, like the plugin image whose function it describes.
final class FFICallInterface: @unchecked Sendable {
    let cif: UnsafeMutablePointer<ffi_cif>
    /// host, the declared parameters, the result pointer (unless void), the error pointer.
    let argumentCount: Int

    /// nil when libffi refuses the description (it never should for these types).
    init?(_ signature: ExportSignature) {
        var types: [UnsafeMutablePointer<ffi_type>?] = [den_ffi_pointer()]
        for parameter in signature.parameters {
            let type: UnsafeMutablePointer<ffi_type>? = switch parameter.type {
            case .i64: den_ffi_sint64()
            case .f64: den_ffi_double()
            case .bool: den_ffi_uint8()
            case .string, .void: den_ffi_pointer()
            }
            types.append(type)
        }
        if signature.result != .void { types.append(den_ffi_pointer()) }
        types.append(den_ffi_pointer())
        let argumentTypes = UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>.allocate(capacity: types.count)
        argumentTypes.initialize(from: types, count: types.count)
        let cif = UnsafeMutablePointer<ffi_cif>.allocate(capacity: 1)
        let status = ffi_prep_cif(cif, den_ffi_default_abi(), UInt32(types.count), den_ffi_sint32(), argumentTypes)
        guard status == FFI_OK else {
            argumentTypes.deallocate()
            cif.deallocate()
            return nil
        }
        self.cif = cif
        self.argumentCount = types.count
    }

    /// Calls `function` with `arguments` (one pointer to each argument's storage) and returns
    /// its int32_t status.
    func call(_ function: den_export_fn, _ arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Int32 {
        // libffi widens an integer result to ffi_arg; the low 32 bits are the int32_t.
        var returned: ffi_arg = 0
        ffi_call(cif, function, &returned, arguments)
        return Int32(truncatingIfNeeded: returned)
    }
}
