/// The closest name by edit distance, when it is close enough to be a typo (at most 2 edits):
/// for "did you mean" in command, module and setting names.
enum Suggestion {
    static func closest(to word: String, in candidates: [String]) -> String? {
        candidates.map { ($0, distance(word, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance (the words here are a few letters long).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
