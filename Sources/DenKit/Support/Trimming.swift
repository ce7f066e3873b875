extension StringProtocol {
    /// The text without leading and trailing white space and line breaks: what Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` returns, for modules that import only
    /// FoundationEssentials (which has no trimming), as DenKit itself does.
    // Inlinable, so callers get it specialized for their string type: an unspecialized generic
    // call makes a fresh process look up `Collection` witnesses at run time.
    @inlinable
    public func trimmingWhitespace() -> String {
        // Foundation's set is Unicode's White_Space (the Z categories, U+0009–U+000D, U+0085)
        // plus the zero-width space U+200B; TrimmingSpec compares the two scalar by scalar.
        // ASCII first: the property table costs a fresh process a first look-up.
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII ? scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value)
                : scalar.properties.isWhitespace || scalar.value == 0x200B
        }
        let scalars = unicodeScalars
        if let first = scalars.first, let last = scalars.last, !isSpace(first), !isSpace(last) { return String(self) }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars[first...last])
        return String(trimmed)
    }
}
