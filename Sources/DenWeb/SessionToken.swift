/// Random 128-bit tokens (session ids, CSRF tokens) as 32 lowercase hex digits, and a comparison
/// that takes the same time wherever the first difference is.
enum SessionToken {
    static let length = 32

    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let high: UInt64 = generator.next(), low: UInt64 = generator.next()
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Only something `make` could have produced is looked up at all.
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Constant time over the expected token's length, so the time taken tells nothing about how
    /// much of a guess was right (the length is public: every token has 32 digits).
    static func matches(_ given: String, expected: String) -> Bool {
        let a = Array(given.utf8), b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in b.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
