#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A dictionary key compared byte for byte by its UTF-8, as URL paths match (no Unicode
/// normalization: `String`'s own `==` would take "é" and "e\u{301}" for one key), and hashed as
/// one buffer: `[UInt8]`'s own hashing feeds the hasher a byte at a time (≈ 30 instructions a
/// byte), and every route a module installs hashes its shape and its literals
/// (docs/PERFORMANCE.md). It keeps the `String`, not a copy of its bytes: a key of up to 15
/// bytes (most route literals and shapes) then costs no allocation at all.
struct UTF8Key: Hashable, Sendable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    static func == (lhs: UTF8Key, rhs: UTF8Key) -> Bool {
        var left = lhs.text, right = rhs.text
        return left.withUTF8 { a in
            right.withUTF8 { b in
                a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
            }
        }
    }
}
