import CDenABI
import DenKit
import FoundationEssentials

/// Takes a module's `den_owned` buffer without copying more than the host will use: a module
/// that hands over 2 GB costs the host a length check, not a 2 GB copy.
package enum BoundedTake {
    /// At most `limit` bytes of `owned`, and its full length; releases the buffer either way.
    package static func take(_ owned: inout den_owned, upTo limit: Int) -> (bytes: Data, length: Int) {
        defer {
            if let ptr = owned.ptr { owned.release?(ptr, owned.len) }
            owned = den_owned(ptr: nil, len: 0, release: nil)
        }
        guard let ptr = owned.ptr, owned.len > 0 else { return (Data(), 0) }
        return (Data(bytes: ptr, count: min(owned.len, limit)), owned.len)
    }

    /// The text of a module's error message, cut at the limit with a note.
    package static func errorText(_ owned: inout den_owned) -> String {
        let (bytes, length) = take(&owned, upTo: WireLimits.maxErrorMessageBytes)
        return WireLimits.errorText(bytes, length: length)
    }
}
