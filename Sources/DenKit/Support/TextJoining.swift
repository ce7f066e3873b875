extension Array where Element == String {
    /// The strings with `separator` between them, as `joined(separator:)` gives. Not generic: the
    /// standard library's `joined` is generic code that a fresh process first has to instantiate
    /// (about 0.1 ms on this machine; docs/START_PATH.md, "What a fresh process pays for").
    package func joinedText(separator: String) -> String {
        guard let first else { return "" }
        var length = separator.utf8.count * (count - 1)
        for part in self { length += part.utf8.count }
        var text = ""
        text.reserveCapacity(length)
        text += first
        for part in dropFirst() {
            text += separator
            text += part
        }
        return text
    }
}
