/// One sample of Prometheus text: `name{label="value",…} 12.5`. What `den top` reads back from
/// `den serve --metrics` (its own format; comments and unparsable lines are skipped).
package struct MetricSample: Sendable, Equatable {
    package var name: String
    package var labels: [String: String]
    package var value: Double

    package init(name: String, labels: [String: String], value: Double) {
        self.name = name
        self.labels = labels
        self.value = value
    }
}

package enum MetricsText {
    /// Every sample in `text`.
    package static func parse(_ text: String) -> [MetricSample] {
        text.split(separator: "\n").compactMap { parseLine($0) }
    }

    static func parseLine(_ line: Substring) -> MetricSample? {
        guard let first = line.first, first != "#" else { return nil }
        var labels: [String: String] = [:]
        let name: Substring
        var rest: Substring
        if let brace = line.firstIndex(of: "{") {
            name = line[..<brace]
            var index = line.index(after: brace)
            // label="value" pairs; a value may hold \" \\ and \n escapes.
            while index < line.endIndex, line[index] != "}" {
                if line[index] == "," { index = line.index(after: index); continue }
                guard let equals = line[index...].firstIndex(of: "="), line.index(after: equals) < line.endIndex,
                      line[line.index(after: equals)] == "\"" else { return nil }
                let key = String(line[index..<equals])
                var value = ""
                var cursor = line.index(equals, offsetBy: 2)
                var closed = false
                while cursor < line.endIndex {
                    let character = line[cursor]
                    if character == "\\" {
                        cursor = line.index(after: cursor)
                        guard cursor < line.endIndex else { return nil }
                        value.append(line[cursor] == "n" ? "\n" : line[cursor])
                    } else if character == "\"" {
                        closed = true
                        break
                    } else {
                        value.append(character)
                    }
                    cursor = line.index(after: cursor)
                }
                guard closed else { return nil }
                labels[key] = value
                index = line.index(after: cursor)
            }
            guard index < line.endIndex else { return nil }
            rest = line[line.index(after: index)...]
        } else {
            guard let space = line.firstIndex(of: " ") else { return nil }
            name = line[..<space]
            rest = line[space...]
        }
        let fields = rest.split(separator: " ")
        guard !name.isEmpty, let valueText = fields.first else { return nil }
        let value: Double? = switch valueText {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        default: Double(valueText)
        }
        guard let value else { return nil }
        return MetricSample(name: String(name), labels: labels, value: value)
    }
}
