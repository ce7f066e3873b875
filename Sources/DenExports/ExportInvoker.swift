import CDenABI
import DenKit
import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Makes one call of an export through libffi (`ffi_call` with the interface prepared at
/// registration), after its arguments were checked against the signature. Every out-parameter is
/// zeroed before the call; strings the module returns are copied and released with its own
/// release function; a broken result is refused with a message, never trusted.
package enum ExportInvoker {
    /// The longest string result the host takes (like a reply document).
    package static let maxStringResultBytes = WireLimits.maxReplyBytes

    package static func invoke(_ export: ModuleExport, _ values: [ExportValue]) -> Result<ExportValue, ExportCallFailure> {
        if let remote = export.remote { return remote.invoke(export, values) }
        let count = export.interface.argumentCount
        // One 8-byte slot per argument (every argument type fits), then the result's storage.
        let slots = UnsafeMutableRawPointer.allocate(byteCount: 8 * count, alignment: 8)
        let pointers = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: count)
        let result = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<den_owned>.size, alignment: 8)
        var error = den_owned(ptr: nil, len: 0, release: nil)
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer {
            strings.forEach { free($0) }
            slots.deallocate()
            pointers.deallocate()
            result.deallocate()
        }
        slots.initializeMemory(as: UInt8.self, repeating: 0, count: 8 * count)
        result.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<den_owned>.size)
        for index in 0..<count { pointers[index] = slots + 8 * index }

        slots.storeBytes(of: export.host.map { UnsafeRawPointer($0) }, as: UnsafeRawPointer?.self)
        for (index, value) in values.enumerated() {
            let slot = slots + 8 * (index + 1)
            switch value {
            case .i64(let number): slot.storeBytes(of: number, as: Int64.self)
            case .f64(let number): slot.storeBytes(of: number, as: Double.self)
            case .bool(let flag): slot.storeBytes(of: flag ? 1 : 0, as: UInt8.self)
            case .string(let text):
                guard let copy = strdup(text) else {
                    return .failure(ExportCallFailure(.misbehaved, status: DEN_ERR_INTERNAL, "\(export.name): out of memory for its arguments"))
                }
                strings.append(copy)
                slot.storeBytes(of: UnsafeRawPointer(copy), as: UnsafeRawPointer.self)
            case .void: break
            }
        }
        var next = values.count + 1
        if export.signature.result != .void {
            slots.advanced(by: 8 * next).storeBytes(of: UnsafeRawPointer(result), as: UnsafeRawPointer.self)
            next += 1
        }
        let status = withUnsafeMutablePointer(to: &error) { errorPointer in
            slots.advanced(by: 8 * next).storeBytes(of: UnsafeRawPointer(errorPointer), as: UnsafeRawPointer.self)
            return export.interface.call(export.pointer, pointers)
        }
        return read(export, status: status, result: result, error: &error)
    }

    private static func read(_ export: ModuleExport, status: Int32, result: UnsafeMutableRawPointer,
                             error: inout den_owned) -> Result<ExportValue, ExportCallFailure> {
        var stringResult = export.signature.result == .string ? result.load(as: den_owned.self) : nil
        guard status == DEN_OK.rawValue else {
            // Whatever the module put in the result is still its buffer: give it back.
            if stringResult != nil { release(&stringResult!) }
            let leaked = error.ptr != nil && error.release == nil
            var text = error.ptr == nil ? "" : BoundedTake.errorText(&error)
            if leaked { text += " (its message had no release function, so it was leaked)" }
            let message = text.isEmpty ? "it gave no message" : ModuleText.singleLine(text, limit: WireLimits.maxErrorMessageBytes)
            return .failure(ExportCallFailure(.failed, status: status,
                                              "\(export.name) failed (\(StatusText.name(status))): \(message)"))
        }
        if error.ptr != nil { release(&error) } // a message beside DEN_OK means nothing
        func broken(_ problem: String) -> Result<ExportValue, ExportCallFailure> {
            .failure(ExportCallFailure(.misbehaved, status: DEN_ERR_INTERNAL, "\(export.name) \(problem); the result was not used. Fix the module (den_module.h, \"Exports\")"))
        }
        switch export.signature.result {
        case .void: return .success(.void)
        case .i64: return .success(.i64(result.load(as: Int64.self)))
        case .bool: return .success(.bool(result.load(as: UInt8.self) != 0))
        case .f64:
            let number = result.load(as: Double.self)
            return number.isFinite ? .success(.f64(number)) : broken("returned \(number), which is not a finite f64")
        case .string:
            var owned = stringResult!
            if owned.ptr != nil, owned.release == nil {
                return broken("returned a string without a release function (den_owned.release is NULL), so the host cannot free it (it leaked)")
            }
            if owned.ptr == nil, owned.len > 0 { return broken("returned a string with a NULL pointer and length \(owned.len)") }
            let (bytes, length) = BoundedTake.take(&owned, upTo: maxStringResultBytes)
            guard length <= maxStringResultBytes else {
                return broken("returned a string of \(WireLimits.describe(bytes: length)); string results are limited to \(WireLimits.describe(bytes: maxStringResultBytes))")
            }
            guard let text = String(validating: bytes, as: UTF8.self) else { return broken("returned a string that is not valid UTF-8") }
            return .success(.string(text))
        }
    }

    private static func release(_ owned: inout den_owned) {
        if let ptr = owned.ptr { owned.release?(ptr, owned.len) }
        owned = den_owned(ptr: nil, len: 0, release: nil)
    }
}
