import CDenABI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Moving bytes across the C boundary: `den_owned` buffers are malloc'd and released with free,
/// so either side can release what the other allocated.
public enum OwnedBuffer {
    /// Copies `data` into a new malloc'd `den_owned`.
    public static func make(_ data: Data) -> den_owned {
        guard !data.isEmpty, let memory = malloc(data.count) else { return den_owned(ptr: nil, len: 0, release: nil) }
        let pointer = memory.assumingMemoryBound(to: UInt8.self)
        data.copyBytes(to: pointer, count: data.count)
        return den_owned(ptr: pointer, len: data.count, release: den_free_release)
    }

    public static func make(_ text: String) -> den_owned { make(Data(text.utf8)) }

    /// Copies the bytes out and releases the buffer (exactly once, as the header requires).
    public static func take(_ owned: inout den_owned) -> Data {
        defer {
            if let ptr = owned.ptr { owned.release?(ptr, owned.len) }
            owned = den_owned(ptr: nil, len: 0, release: nil)
        }
        guard let ptr = owned.ptr, owned.len > 0 else { return Data() }
        return Data(bytes: ptr, count: owned.len)
    }

    /// A borrowed view of `data` for the duration of `body`.
    public static func borrow<R>(_ data: Data, _ body: (den_bytes) throws -> R) rethrows -> R {
        try data.withUnsafeBytes { raw in
            try body(den_bytes(ptr: raw.bindMemory(to: UInt8.self).baseAddress, len: raw.count))
        }
    }

    /// Copies borrowed bytes into `Data`.
    public static func copy(_ bytes: den_bytes) -> Data {
        guard let ptr = bytes.ptr, bytes.len > 0 else { return Data() }
        return Data(bytes: ptr, count: bytes.len)
    }
}
