/// A dictionary key of UTF-8 bytes, compared byte for byte as `[UInt8]` is, but hashed as one
/// buffer: `[UInt8]`'s own hashing feeds the hasher a byte at a time (≈ 30 instructions a byte),
/// and every route a module installs hashes its shape and its literals (docs/PERFORMANCE.md).
struct UTF8Key: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
