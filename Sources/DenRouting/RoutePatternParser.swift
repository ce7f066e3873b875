/// Turns pattern text into segments, reporting the first problem precisely. Runs at registration
/// only, so it favours clear errors over speed.
package enum RoutePatternParser {
    static func parse(_ text: String) throws(RoutePatternError) -> [RouteSegment] {
        if let plain = plainSegments(text) { return plain }
        return try parseInFull(text)
    }

    /// Every pattern, with the first problem reported precisely.
    static func parseInFull(_ text: String) throws(RoutePatternError) -> [RouteSegment] {
        let body = trimmingSlashes(Substring(text))
        let pieces = body.split(separator: "/", omittingEmptySubsequences: false)

        // A '?' or '#' is reported before anything else: whatever follows it was never meant as path.
        for (index, piece) in pieces.enumerated() {
            if let character = piece.first(where: { $0 == "?" || $0 == "#" }) {
                throw RoutePatternError(
                    pattern: text, reason: .queryOrFragment(character), segmentNumber: index + 1, segment: String(piece))
            }
        }
        guard !body.isEmpty else { throw RoutePatternError(pattern: text, reason: .empty) }

        var segments: [RouteSegment] = []
        segments.reserveCapacity(pieces.count)
        var names: Set<String> = []
        for (index, piece) in pieces.enumerated() {
            let number = index + 1
            func fail(_ reason: RoutePatternError.Reason) -> RoutePatternError {
                RoutePatternError(pattern: text, reason: reason, segmentNumber: number, segment: String(piece))
            }
            let segment = try parseSegment(piece, fail: fail)
            if case .parameter(let name, let type) = segment {
                guard names.insert(name).inserted else { throw fail(.duplicateName(name)) }
                if type == .path, number != pieces.count { throw fail(.catchAllNotLast(name)) }
            }
            segments.append(segment)
        }
        // After the segments, so a malformed segment is reported as such rather than as length.
        let textByteCount = text.utf8.count
        if textByteCount > RouteLengthLimit.maximumByteCount {
            throw RoutePatternError(pattern: text, reason: .tooLong(byteCount: textByteCount))
        }
        let shortest = RouteLengthLimit.shortestRouteByteCount(segments)
        if shortest > RouteLengthLimit.maximumByteCount {
            throw RoutePatternError(pattern: text, reason: .shortestRouteTooLong(byteCount: shortest))
        }
        return segments
    }

    /// The segments of an ASCII pattern of plain literals and well-formed placeholders
    /// ("about", "jogs/<int:id>/edit", "files/<path:rest>"), read by bytes; nil for anything
    /// else — slashes at either end, empty or dot segments, other characters, a placeholder that
    /// is malformed, of an unknown type, named twice or a catch-all before the end, a pattern
    /// over the length limit — which the parser above reads, reporting what is wrong. (The full
    /// parser walks Characters: ≈ 57,000 instructions for `jogs/<int:id>`, at every start.)
    static func plainSegments(_ text: String) -> [RouteSegment]? {
        // Over the contiguous bytes with integer offsets: a String.UTF8View index costs checks
        // at every step (≈ 2,000 instructions for `bench-m17` that way, ≈ 300 this way).
        var text = text
        return text.withUTF8 { bytes -> [RouteSegment]? in
            guard !bytes.isEmpty, bytes.count <= RouteLengthLimit.maximumByteCount else { return nil }
            var segments: [RouteSegment] = []
            var names: [String] = []
            var start = 0
            while true {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
                guard end > start else { return nil }
                let piece = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if piece[0] == UInt8(ascii: "<") {
                    guard let parameter = simplePlaceholder(piece), !names.contains(parameter.name),
                          parameter.type != .path || end == bytes.count else { return nil }
                    names.append(parameter.name)
                    segments.append(.parameter(name: parameter.name, type: parameter.type))
                } else {
                    guard isPlainLiteral(piece) else { return nil }
                    segments.append(.literal(String(decoding: piece, as: UTF8.self)))
                }
                guard end < bytes.count else { break }
                start = end + 1
            }
            guard names.isEmpty || RouteLengthLimit.shortestRouteByteCount(segments) <= RouteLengthLimit.maximumByteCount else {
                return nil
            }
            return segments
        }
    }

    /// Whether `text` is a pattern of plain literals only ("about", "jogs/new"), which `parse`
    /// accepts: the bytes `plainSegments` takes for literals, checked with nothing made (a
    /// manifest's patterns are checked at every start, then parsed again by the route table).
    package static func isPlainLiteralPattern(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.count <= RouteLengthLimit.maximumByteCount else { return false }
            var start = 0
            while true {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
                guard isPlainLiteral(UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return false }
                guard end < bytes.count else { return true }
                start = end + 1
            }
        }
    }

    /// A literal segment `plainSegments` takes: not empty, not `.` or `..`, only literal bytes.
    private static func isPlainLiteral(_ piece: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !piece.isEmpty else { return false }
        let isDots = piece.count <= 2 && piece.allSatisfy { $0 == UInt8(ascii: ".") }
        return !isDots && piece.allSatisfy(isLiteralByte)
    }

    /// `isLiteralScalar` for one ASCII byte (false for any byte of a multi-byte character).
    private static func isLiteralByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"),
             UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
             UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
            true
        default:
            false
        }
    }

    /// `<type:name>` or `<name>` (a string) with a known type and an ASCII identifier; nil
    /// for anything else, including `<int>` (a type without a name).
    private static func simplePlaceholder(_ piece: UnsafeBufferPointer<UInt8>) -> (name: String, type: RouteParameterType)? {
        guard piece.count >= 3, piece[piece.count - 1] == UInt8(ascii: ">") else { return nil }
        let inner = UnsafeBufferPointer(rebasing: piece[1..<(piece.count - 1)])
        let colon = inner.firstIndex(of: UInt8(ascii: ":"))
        let nameBytes = colon.map { UnsafeBufferPointer(rebasing: inner[($0 + 1)...]) } ?? inner
        guard let first = nameBytes.first, isIdentifierStart(first), nameBytes.allSatisfy(isIdentifierByte) else { return nil }
        let name = String(decoding: nameBytes, as: UTF8.self)
        guard let colon else {
            return RouteParameterType(rawValue: name) == nil ? (name, .string) : nil
        }
        guard let type = RouteParameterType(rawValue: String(decoding: UnsafeBufferPointer(rebasing: inner[..<colon]), as: UTF8.self)) else {
            return nil
        }
        return (name, type)
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Leading and trailing slashes carry no meaning in patterns or routes.
    static func trimmingSlashes(_ text: Substring) -> Substring {
        guard let first = text.firstIndex(where: { $0 != "/" }),
              let last = text.lastIndex(where: { $0 != "/" })
        else { return text[text.endIndex...] }
        return text[first...last]
    }

    private static func parseSegment(
        _ piece: Substring, fail: (RoutePatternError.Reason) -> RoutePatternError
    ) throws(RoutePatternError) -> RouteSegment {
        guard !piece.isEmpty else { throw fail(.emptySegment) }

        // Bracket structure first, so "<int:x" is reported as unclosed rather than as a bad literal.
        var open = false
        var placeholders = 0
        for scalar in piece.unicodeScalars {
            if scalar == "<" {
                guard !open else { throw fail(.nestedPlaceholder) }
                open = true
                placeholders += 1
            } else if scalar == ">" {
                guard open else { throw fail(.unopenedPlaceholder) }
                open = false
            }
        }
        guard !open else { throw fail(.unclosedPlaceholder) }

        if placeholders == 0 { return try literal(piece, fail: fail) }
        guard placeholders == 1, piece.first == "<", piece.last == ">" else { throw fail(.mixedSegment) }

        let inner = piece.dropFirst().dropLast()
        let type: RouteParameterType
        let name: Substring
        if let colon = inner.firstIndex(of: ":") {
            let typeText = inner[..<colon]
            guard let known = RouteParameterType(rawValue: String(typeText)) else {
                throw fail(.unknownType(String(typeText)))
            }
            type = known
            name = inner[inner.index(after: colon)...]
        } else {
            // `<int>` reads as "an int without a name", not "a string named int": refuse the ambiguity.
            if let typeOnly = RouteParameterType(rawValue: String(inner)) { throw fail(.missingName(typeOnly)) }
            type = .string
            name = inner
        }
        guard isIdentifier(name) else { throw fail(.invalidName(String(name))) }
        return .parameter(name: String(name), type: type)
    }

    private static func literal(
        _ piece: Substring, fail: (RoutePatternError.Reason) -> RoutePatternError
    ) throws(RoutePatternError) -> RouteSegment {
        if piece == "." || piece == ".." { throw fail(.dotSegment) }
        for character in piece where !character.unicodeScalars.allSatisfy(isLiteralScalar) {
            throw fail(.invalidCharacter(character))
        }
        return .literal(String(piece))
    }

    /// RFC 3986 `pchar` minus percent-encoding, plus visible non-ASCII characters (routes carry
    /// those percent-encoded or raw; both decode to the same text).
    static func isLiteralScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9",
                 "-", ".", "_", "~", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=", ":", "@":
                return true
            default:
                return false
            }
        }
        switch scalar.properties.generalCategory {
        case .control, .format, .unassigned, .surrogate, .privateUse,
             .spaceSeparator, .lineSeparator, .paragraphSeparator:
            return false
        default:
            return true
        }
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`: names become dictionary keys and appear in generated URLs' errors.
    private static func isIdentifier(_ name: Substring) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic)
        else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar == "_" || (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
        }
    }
}
