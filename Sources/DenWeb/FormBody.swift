import DenKit

/// An `application/x-www-form-urlencoded` body, read strictly within `WebLimits`: den's forms
/// send each name once, so anything else is a client's mistake worth a precise 400 page. (Our own
/// parser rather than `URLEncodedFormDecoder`: its errors do not say which field was wrong, and
/// it has no count or size limits.)
struct FormBody: Sendable {
    private(set) var values: [String: String] = [:]

    subscript(_ name: String) -> String? { values[name] }

    /// Values whose names start with `prefix`, keyed by the rest of the name (`f.amount` → `amount`).
    func values(prefixed prefix: String) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in values where name.hasPrefix(prefix) { result[String(name.dropFirst(prefix.count))] = value }
        return result
    }

    init(_ bytes: [UInt8], limits: WebLimits) throws(FormProblem) {
        guard !bytes.isEmpty else { return }
        let pairs = bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
        guard pairs.count <= limits.maxFields else {
            throw FormProblem("the form has \(pairs.count) fields; den accepts at most \(limits.maxFields)")
        }
        for pair in pairs {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let rawName = equals.map { pair[pair.startIndex..<$0] } ?? pair[...]
            let rawValue = equals.map { pair[pair.index(after: $0)...] } ?? []
            let name = try Self.decode(rawName, what: "a field name")
            guard !name.isEmpty else { throw FormProblem("the form has a value without a field name") }
            guard name.utf8.count <= limits.maxFieldNameBytes else {
                throw FormProblem("a field name is \(name.utf8.count) bytes long; den accepts at most \(limits.maxFieldNameBytes)")
            }
            let shown = Self.shown(name)
            let value = try Self.decode(rawValue, what: "the value of field '\(shown)'")
            guard value.utf8.count <= limits.maxFieldValueBytes else {
                throw FormProblem("field '\(shown)' is \(value.utf8.count) bytes long; den accepts at most \(limits.maxFieldValueBytes)")
            }
            guard values[name] == nil else { throw FormProblem("the form sent field '\(shown)' twice") }
            values[name] = value
        }
    }

    /// A field name as a message may quote it: short and printable.
    static func shown(_ name: String) -> String {
        let printable = String(String.UnicodeScalarView(name.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
        return printable.count > 60 ? String(printable.prefix(60)) + "…" : printable
    }

    /// `+` is a space and `%XX` a byte; the bytes must be UTF-8.
    private static func decode(_ raw: ArraySlice<UInt8>, what: String) throws(FormProblem) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < raw.endIndex, let high = HexDigit.value(raw[index + 1]), let low = HexDigit.value(raw[index + 2]) else {
                    throw FormProblem("\(what) has a '%' that is not followed by two hex digits")
                }
                bytes.append(high << 4 | low)
                index += 2
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FormProblem("\(what) is not valid UTF-8 text")
        }
        return text
    }
}

/// What was wrong with a posted form, worded for the 400 page.
struct FormProblem: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}
