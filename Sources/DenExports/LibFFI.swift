@preconcurrency import CFFI
#if canImport(Glibc)
import Glibc
#endif

/// libffi, opened the first time a module registers an export instead of being linked into den.
/// A linked library is mapped and relocated at every start, and every symbol the dynamic loader
/// looks up at start passes it first (it was den's first `NEEDED` library): ≈ 2 % of a
/// `den render about` that calls no export (docs/START_PATH.md, "libffi on first use").
/// CFFI still gives the types and constants (`ffi.h`); only the code comes from here.
package struct LibFFI: @unchecked Sendable {
    package typealias PrepareCall = @convention(c) (UnsafeMutablePointer<ffi_cif>?, ffi_abi, UInt32, UnsafeMutablePointer<ffi_type>?,
                                            UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>?) -> ffi_status
    package typealias Call = @convention(c) (UnsafeMutablePointer<ffi_cif>?, Function?, UnsafeMutableRawPointer?,
                                     UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Void
    /// An export's function, as libffi takes it (den_module.h's den_export_fn).
    package typealias Function = @convention(c) () -> Void

    package let prepareCall: PrepareCall
    package let call: Call
    package let sint64: UnsafeMutablePointer<ffi_type>
    package let sint32: UnsafeMutablePointer<ffi_type>
    package let double: UnsafeMutablePointer<ffi_type>
    package let uint8: UnsafeMutablePointer<ffi_type>
    package let pointer: UnsafeMutablePointer<ffi_type>

    /// The names tried, in order: the development link, which goes with the headers den was built
    /// against (libffi-dev), then the run-time library of libffi 3.4 alone.
    package static let fileNames = ["libffi.so", "libffi.so.8"]

    /// Loaded once per process, the first time it is asked for.
    package static let shared: Result<LibFFI, LoadFailure> = load(fileNames)

    package struct LoadFailure: Error, Equatable, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    /// Opens the first of `fileNames` that loads and finds the seven symbols den uses.
    package static func load(_ fileNames: [String]) -> Result<LibFFI, LoadFailure> {
        var reasons: [String] = []
        for name in fileNames {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? "\(name): cannot be opened")
                continue
            }
            func symbol(_ symbol: String) -> UnsafeMutableRawPointer? { dlsym(handle, symbol) }
            guard let prepare = symbol("ffi_prep_cif"), let call = symbol("ffi_call"),
                  let sint64 = symbol("ffi_type_sint64"), let sint32 = symbol("ffi_type_sint32"),
                  let double = symbol("ffi_type_double"), let uint8 = symbol("ffi_type_uint8"),
                  let pointer = symbol("ffi_type_pointer") else {
                reasons.append("\(name) lacks ffi_prep_cif, ffi_call or an ffi_type")
                continue // never dlclosed: den closes no library it opened
            }
            return .success(LibFFI(prepareCall: unsafeBitCast(prepare, to: PrepareCall.self), call: unsafeBitCast(call, to: Call.self),
                                   sint64: sint64.assumingMemoryBound(to: ffi_type.self), sint32: sint32.assumingMemoryBound(to: ffi_type.self),
                                   double: double.assumingMemoryBound(to: ffi_type.self), uint8: uint8.assumingMemoryBound(to: ffi_type.self),
                                   pointer: pointer.assumingMemoryBound(to: ffi_type.self)))
        }
        return .failure(LoadFailure(description: "libffi could not be loaded (\(reasons.joined(separator: "; "))); "
                                        + "install it (Debian and Ubuntu: apt-get install libffi-dev)"))
    }
}
