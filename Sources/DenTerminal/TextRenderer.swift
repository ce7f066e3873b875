import DenKit

/// Draws a `Screen` as plain text for a terminal or a pipe. Every element type has a text form;
/// buttons, links and linked list items get numbers in reading order.
public struct TextRenderer: Sendable {
    public var width: Int

    public init(width: Int = 76) {
        self.width = max(width, 30)
    }

    /// - Parameter values: field values being edited, which override the screen's own values.
    public func render(_ screen: Screen, values: [String: String] = [:]) -> RenderedScreen {
        var lines: [String] = []
        var actions: [RenderedScreen.Action] = []
        func clean(_ text: String) -> String { TerminalText.sanitize(text) }
        // Two choice fields with the same options (from/to currencies) list them once.
        var previousChoice: Field?
        func number(_ action: RenderedScreen.Action) -> String {
            actions.append(action)
            return "[\(actions.count)]"
        }

        let title = clean(screen.title)
        lines.append(title)
        lines.append(String(repeating: "=", count: min(max(title.count, 3), width)))
        for element in screen.elements {
            switch element {
            case .heading(let text):
                lines.append("")
                lines.append(clean(text).uppercased())
            case .text(let text, let style):
                let body = clean(text)
                switch style {
                case .body: lines += TerminalText.wrap(body, width: width)
                case .caption: lines += TerminalText.wrap("(\(body))", width: width)
                case .emphasis: lines += TerminalText.wrap("*\(body)*", width: width)
                }
            case .field(let field):
                lines += fieldLines(field, value: values[field.id] ?? field.value, sameChoicesAs: previousChoice)
                if field.kind == .choice { previousChoice = field }
            case .button(let button):
                lines.append("\(number(.button(id: button.id, label: button.label))) \(clean(button.label))")
            case .link(let link):
                lines.append("\(number(.route(link.route, label: link.label))) \(clean(link.label)) -> \(clean(link.route))")
            case .list(let list):
                lines.append("")
                if let title = list.title { lines.append(clean(title) + ":") }
                if list.items.isEmpty, let empty = list.emptyText { lines.append("  " + clean(empty)) }
                for item in list.items {
                    var line = item.route.map { number(.route($0, label: item.title)) + " " } ?? "- "
                    line += clean(item.title)
                    if let detail = item.detail, !detail.isEmpty { line += " — " + clean(detail) }
                    lines += TerminalText.wrap(line, width: width, indent: "    ", firstIndent: "  ")
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
                lines += TerminalText.wrap("[\(marker)] " + clean(banner.text), width: width)
            case .unsupported(let type):
                lines.append("(this screen has a '\(clean(type))' element this terminal cannot draw)")
            }
        }
        return RenderedScreen(text: lines.joined(separator: "\n"), actions: actions)
    }

    private func fieldLines(_ field: Field, value: String, sameChoicesAs previous: Field?) -> [String] {
        let shown = field.kind == .password ? String(repeating: "*", count: value.count) : value
        var line = "\(TerminalText.sanitize(field.label)) [\(TerminalText.sanitize(field.id))]: \(TerminalText.sanitize(shown))"
        if shown.isEmpty, let placeholder = field.placeholder { line += "(\(TerminalText.sanitize(placeholder)))" }
        var lines = [line]
        if field.kind == .choice, !field.options.isEmpty {
            if let previous, previous.options == field.options {
                lines.append("    one of: the same as \(TerminalText.sanitize(previous.id))")
            } else {
                lines += TerminalText.wrap("one of: " + field.options.map(TerminalText.sanitize).joined(separator: " "),
                                           width: width, indent: "    ")
            }
        }
        if let error = field.error { lines += TerminalText.wrap("! " + TerminalText.sanitize(error), width: width, indent: "    ") }
        return lines
    }

    private func tableLines(_ table: Table) -> [String] {
        let rows = ([table.columns] + table.rows).map { $0.map(TerminalText.sanitize) }
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ row: [String]) -> String {
            (0..<count).map { column in
                let cell = column < row.count ? row[column] : ""
                return cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        var lines = [line(rows[0]), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        lines += rows.dropFirst().map(line)
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
