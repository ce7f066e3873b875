import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A line of progress on standard error while long work runs (`den data migrate`, `den cache
/// clean`, `den modules install <id>`'s downloads): redrawn in place at most ten times a second,
/// with a bar when the total is known, and cleared at the end. When standard error is not a
/// terminal nothing is written at all, so a script's log stays as it was.
package final class ProgressLine: Sendable {
    private let enabled: Bool
    private let width: Int
    private let clock: @Sendable () -> ContinuousClock.Instant
    private let write: @Sendable (String) -> Void
    private struct State {
        var last: ContinuousClock.Instant?
        var label = ""
        var drawn = false
    }
    private let state = Mutex(State())

    /// On standard error, when it is a terminal `width` columns wide.
    package convenience init(width: Int) {
        self.init(enabled: isatty(STDERR_FILENO) == 1, width: width) { text in
            text.withCString { _ = Glibc.write(STDERR_FILENO, $0, strlen($0)) }
        }
    }

    package init(enabled: Bool, width: Int, clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
                 write: @escaping @Sendable (String) -> Void) {
        self.enabled = enabled
        self.width = max(width, 20)
        self.clock = clock
        self.write = write
    }

    /// "Copying [######    ] 120/200 entries": drawn now if a tenth of a second has passed
    /// since the last drawing (or the label changed, or the work is done).
    package func update(_ label: String, done: Int, total: Int, unit: String) {
        draw(label: label, force: done >= total) {
            "\(label) \(Self.bar(Int64(done), of: Int64(total), width: 20)) \(done)/\(total) \(unit)"
        }
    }

    /// A phase without a count: "Writing 5000 entries in one transaction".
    package func update(_ text: String) {
        draw(label: text, force: true) { text }
    }

    /// Where several transfers stand together: the `file`th (from 1) of `files`, and the bytes
    /// of all of them so far against their sum.
    package struct Overall: Sendable, Equatable {
        package var file: Int
        package var files: Int
        package var bytes: Int64
        package var size: Int64

        package init(file: Int, files: Int, bytes: Int64, size: Int64) {
            (self.file, self.files, self.bytes, self.size) = (file, files, bytes, size)
        }
    }

    /// Bytes of a transfer, "fetching main 1.0.0  1.4 MiB of 3.1 MiB", and with `overall`
    /// "· file 2 of 3, 4.5 MiB of 9.3 MiB", then a bar (of the whole) where the width leaves room.
    /// Cheap when not drawn: the text is made only for a drawing. A transfer that reaches its size
    /// is drawn at once, so its last line shows it whole.
    package func update(_ label: String, bytes: Int64, of size: Int64, overall: Overall? = nil) {
        draw(label: label, force: bytes >= size) { Self.transferText(label, bytes: bytes, of: size, overall: overall, width: width - 1) }
    }

    /// The bytes line's text; the bar only when it fits within `width` columns.
    package static func transferText(_ label: String, bytes: Int64, of size: Int64, overall: Overall?, width: Int) -> String {
        var text = "\(label)  \(byteCount(bytes)) of \(byteCount(size))"
        if let overall {
            text += " · file \(overall.file) of \(overall.files), \(byteCount(overall.bytes)) of \(byteCount(overall.size))"
        }
        let room = width - text.count - 1 // the bar and the space before it
        guard room >= 12 else { return text }
        let (done, total) = overall.map { ($0.bytes, $0.size) } ?? (bytes, size)
        return text + " " + bar(done, of: total, width: min(room, 22) - 2)
    }

    /// A byte count in binary units, rounded down so a count shows its total only once it is
    /// there: "512 B", "1.0 KiB", "1.4 MiB", "3.1 GiB".
    package static func byteCount(_ count: Int64) -> String {
        let units: [(String, Int64)] = [("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        guard let (name, unit) = units.first(where: { count >= $0.1 }) else { return "\(max(count, 0)) B" }
        return "\(count / unit).\(count % unit * 10 / unit) \(name)"
    }

    /// "[#####     ]": `done` of `total` in `width` cells between the brackets.
    private static func bar(_ done: Int64, of total: Int64, width: Int) -> String {
        let filled = total > 0 ? Int(min(Int64(width), max(0, done) * Int64(width) / total)) : 0
        return "[\(String(repeating: "#", count: filled))\(String(repeating: " ", count: width - filled))]"
    }

    /// Clears the line, so what is printed next starts on a clean one.
    package func finish() {
        guard enabled else { return }
        let drawn = state.withLock { $0.drawn }
        if drawn { write("\r\u{1B}[2K") }
    }

    private func draw(label: String, force: Bool, _ text: () -> String) {
        guard enabled else { return }
        let now = clock()
        let due = state.withLock { state -> Bool in
            let due = force || state.label != label || state.last.map { now - $0 >= .milliseconds(100) } ?? true
            if due {
                state.last = now
                state.label = label
                state.drawn = true
            }
            return due
        }
        guard due else { return }
        write("\r\u{1B}[2K" + String(text().prefix(width - 1)))
    }
}
