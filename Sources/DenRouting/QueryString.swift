/// `application/x-www-form-urlencoded`-style query strings, as routes carry them.
///
/// Parsing: pairs separated by `&`; `+` is a space; keys and values are percent-decoded; a key
/// without `=` gets ""; empty pairs and pairs with an empty key are skipped. A key may repeat
/// (`id=1&id=2`): `parseAll` keeps every value in order, `parse` keeps the last one.
/// Decoded control characters are allowed here (a query value is data).
public enum QueryString: Sendable {
    /// One value per key; when a key repeats, the last value wins.
    public static func parse(_ query: some StringProtocol) throws(MalformedRouteReason) -> [String: String] {
        try parseAll(query).compactMapValues(\.last)
    }

    /// Every value of every key, in the order they appear.
    public static func parseAll(_ query: some StringProtocol) throws(MalformedRouteReason) -> [String: [String]] {
        var text = String(query)
        // withUTF8 only rethrows untyped errors, so carry the typed error out in a Result.
        let result = text.withUTF8 { bytes in
            Result { () throws(MalformedRouteReason) in try parse(bytes: bytes) }
        }
        return try result.get()
    }

    /// `key=value` pairs sorted by key, joined by `&`, every byte outside `A-Z a-z 0-9 - . _ ~`
    /// percent-encoded (so a space is `%20` and `+`, `&`, `=` survive). Sorted so the same
    /// parameters always give the same route.
    public static func encode(_ parameters: [String: String]) -> String {
        parameters.sorted { $0.key < $1.key }
            .map { RoutePercentEncoding.encode($0.key) + "=" + RoutePercentEncoding.encode($0.value) }
            .joined(separator: "&")
    }

    /// Works on UTF-8 bytes: splitting by `Character` would cost grapheme breaking on every byte.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) throws(MalformedRouteReason) -> [String: [String]] {
        var result: [String: [String]] = [:]
        var pairStart = 0
        while pairStart < bytes.count {
            var pairEnd = pairStart
            while pairEnd < bytes.count, bytes[pairEnd] != UInt8(ascii: "&") { pairEnd += 1 }
            if pairEnd > pairStart {
                var equals = pairStart
                while equals < pairEnd, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                let key = try decode(UnsafeBufferPointer(rebasing: bytes[pairStart..<equals]))
                if !key.isEmpty {
                    let value = equals < pairEnd
                        ? try decode(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<pairEnd])) : ""
                    result[key, default: []].append(value)
                }
            }
            pairStart = pairEnd + 1
        }
        return result
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(MalformedRouteReason) -> String {
        switch RoutePercentEncoding.decode(bytes, plusIsSpace: true, allowControlCharacters: true) {
        case .success(let decoded): return decoded
        case .failure(let failure): throw MalformedRouteReason(failure, in: .query)
        }
    }
}
