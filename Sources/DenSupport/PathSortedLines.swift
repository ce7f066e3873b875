/// Lines of a file keyed by a path (the registry cache, the signature index), sorted by their
/// paths so a path is found by binary search. A file written by hand, or by an older den, is
/// sorted when read.
package enum PathSortedLines {
    /// `lines` sorted by `order` of their paths, stable, keeping the last line of a repeated path.
    package static func sorted<Line>(_ lines: [Line], path: (Line) -> Range<Int>,
                                     order: (Range<Int>, Range<Int>) -> Int32) -> [Line] {
        let byPath = lines.enumerated().sorted { a, b in
            let compared = order(path(a.element), path(b.element))
            return compared != 0 ? compared < 0 : a.offset < b.offset
        }.map(\.element)
        var kept: [Line] = []
        kept.reserveCapacity(byPath.count)
        for line in byPath {
            if let last = kept.last, order(path(last), path(line)) == 0 { kept.removeLast() }
            kept.append(line)
        }
        return kept
    }
}
