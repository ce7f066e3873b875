import DenKit

/// Draws a `Screen` as text for a terminal or a pipe. Every element type has a text form;
/// buttons, links and linked list items get numbers in reading order. Every line is wrapped at
/// word boundaries to `width` (the terminal's real width, see `TerminalWidth`); styles are
/// applied after wrapping so escape codes never count as columns.
package struct TextRenderer: Sendable {
    /// Narrower than this, words would stand one per line; a terminal that small wraps itself.
    package static let minimumWidth = 20

    package var width: Int {
        didSet { width = max(width, TextRenderer.minimumWidth) }
    }
    package var style: TerminalStyle

    package init(width: Int = TerminalWidth.fallback, style: TerminalStyle = .plain) {
        self.width = max(width, TextRenderer.minimumWidth)
        self.style = style
    }

    /// - Parameter values: field values being edited, which override the screen's own values.
    package func render(_ screen: Screen, values: [String: String] = [:]) -> RenderedScreen {
        var lines: [String] = []
        var actions: [RenderedScreen.Action] = []
        func clean(_ text: String) -> String { TerminalText.sanitize(text) }
        func wrap(_ text: String, indent: String = "", firstIndent: String? = nil) -> [String] {
            TerminalText.wrap(text, width: width, indent: indent, firstIndent: firstIndent)
        }
        // Two choice fields with the same options (from/to currencies) list them once.
        var previousChoice: Field?
        /// "[n] text" wrapped under its number, the number styled.
        func numbered(_ action: RenderedScreen.Action, _ text: String, firstIndent: String = "") -> [String] {
            actions.append(action)
            let tag = "[\(actions.count)]"
            var wrapped = wrap(tag + " " + text, indent: firstIndent + String(repeating: " ", count: tag.count + 1),
                               firstIndent: firstIndent)
            if style.colour, let first = wrapped.first {
                wrapped[0] = firstIndent + style.number(tag) + String(first.dropFirst(firstIndent.count + tag.count))
            }
            return wrapped
        }

        let title = wrap(clean(screen.title))
        lines += title.map(style.title)
        let titleWidth = title.map(\.count).max() ?? 0
        lines.append(style.quiet(String(repeating: "=", count: min(max(titleWidth, 3), width))))
        for element in screen.elements {
            switch element {
            case .heading(let text):
                lines.append("")
                lines += wrap(clean(text).uppercased()).map(style.heading)
            case .text(let text, let style):
                let body = clean(text)
                switch style {
                case .body: lines += wrap(body)
                case .caption: lines += self.style.colour ? wrap(body).map(self.style.caption) : wrap("(\(body))")
                case .emphasis: lines += self.style.colour ? wrap(body).map(self.style.emphasis) : wrap("*\(body)*")
                }
            case .field(let field):
                lines += fieldLines(field, value: values[field.id] ?? field.value, sameChoicesAs: previousChoice)
                if field.kind == .choice { previousChoice = field }
            case .button(let button):
                lines += numbered(.button(id: button.id, label: button.label), clean(button.label))
            case .link(let link):
                lines += numbered(.route(link.route, label: link.label), "\(clean(link.label)) -> \(clean(link.route))")
            case .list(let list):
                lines.append("")
                if let title = list.title { lines += wrap(clean(title) + ":") }
                if list.items.isEmpty, let empty = list.emptyText { lines += wrap(clean(empty), indent: "  ") }
                for item in list.items {
                    let title = clean(item.title)
                    let detail = item.detail.map(clean) ?? ""
                    if let route = item.route {
                        lines += numbered(.route(route, label: item.title), Self.joined("", title, detail), firstIndent: "  ")
                    } else if let line = Self.unwrappedRow(title, detail, width: width) {
                        lines.append(line)
                    } else {
                        lines += wrap(Self.joined("- ", title, detail), indent: "    ", firstIndent: "  ")
                    }
                }
            case .table(let table):
                lines.append("")
                lines += tableLines(table)
            case .banner(let banner):
                let marker = switch banner.kind {
                case .info: "i"
                case .success: "ok"
                case .warning: "!"
                case .error: "ERROR"
                }
                lines += wrap("[\(marker)] " + clean(banner.text)).map { style.banner($0, kind: banner.kind) }
            case .unsupported(let type):
                lines += wrap("(this screen has a '\(clean(type))' element this terminal cannot draw)")
            }
        }
        return RenderedScreen(text: lines.joinedText(separator: "\n"), actions: actions)
    }

    /// `lead`, the title, then " — " and the detail when there is one, in one string sized up
    /// front: About lists a row per installed module, and `+` made a new string for each piece.
    private static func joined(_ lead: String, _ title: String, _ detail: String, indent: String = "") -> String {
        var text = ""
        text.reserveCapacity(indent.utf8.count + lead.utf8.count + title.utf8.count + (detail.isEmpty ? 0 : 5 + detail.utf8.count))
        text += indent
        text += lead
        text += title
        if !detail.isEmpty {
            text += " — "
            text += detail
        }
        return text
    }

    /// A list row that fits the width as it stands ("  - title — detail"), made at once; nil when
    /// it needs wrapping (`wrap` then gives the same line for one that fits).
    private static func unwrappedRow(_ title: String, _ detail: String, width: Int) -> String? {
        let length = 4 + title.utf8.count + (detail.isEmpty ? 0 : 5 + detail.utf8.count)
        guard length <= width, !title.isEmpty, TerminalText.isSingleSpaced(title),
              detail.isEmpty || TerminalText.isSingleSpaced(detail) else { return nil }
        return joined("- ", title, detail, indent: "  ")
    }

    private func fieldLines(_ field: Field, value: String, sameChoicesAs previous: Field?) -> [String] {
        let shown = field.kind == .password ? String(repeating: "*", count: value.count) : value
        // A date is typed here as a browser's picker posts it: the label says the format, which a
        // module leaves out (the browser shows its own).
        let format = field.kind == .date ? " (YYYY-MM-DD)" : ""
        var line = "\(TerminalText.sanitize(field.label))\(format) [\(TerminalText.sanitize(field.id))]: \(TerminalText.sanitize(shown))"
        if shown.isEmpty, let placeholder = field.placeholder { line += "(\(TerminalText.sanitize(placeholder)))" }
        var lines = TerminalText.wrap(line, width: width, indent: "    ", firstIndent: "")
        if field.kind == .choice, !field.options.isEmpty {
            if let previous, previous.options == field.options {
                lines += TerminalText.wrap("one of: the same as \(TerminalText.sanitize(previous.id))", width: width, indent: "    ",
                                           firstIndent: "    ")
            } else {
                lines += TerminalText.wrap("one of: " + field.options.map(TerminalText.sanitize).joined(separator: " "),
                                           width: width, indent: "    ")
            }
        }
        if let error = field.error {
            lines += TerminalText.wrap("! " + TerminalText.sanitize(error), width: width, indent: "    ").map(style.error)
        }
        return lines
    }

    /// Columns side by side when they fit the width; otherwise one block per row, each cell as
    /// "column: value", so a wide table never runs past the terminal's edge.
    private func tableLines(_ table: Table) -> [String] {
        let rows = ([table.columns] + table.rows).map { $0.map(TerminalText.sanitize) }
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        guard widths.reduce(0, +) + 2 * max(count - 1, 0) <= width else { return narrowTableLines(rows, count: count) }
        func line(_ row: [String]) -> String {
            (0..<count).map { column in
                let cell = column < row.count ? row[column] : ""
                return cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        var lines = [style.emphasis(line(rows[0])), style.quiet(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))]
        lines += rows.dropFirst().map(line)
        return lines
    }

    private func narrowTableLines(_ rows: [[String]], count: Int) -> [String] {
        let header = rows[0]
        var lines: [String] = []
        for row in rows.dropFirst() {
            for column in 0..<count {
                let name = column < header.count ? header[column] : ""
                let cell = column < row.count ? row[column] : ""
                let text = name.isEmpty ? cell : "\(name): \(cell)"
                lines += TerminalText.wrap(text, width: width, indent: "    ", firstIndent: column == 0 ? "- " : "  ")
            }
        }
        return lines
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
