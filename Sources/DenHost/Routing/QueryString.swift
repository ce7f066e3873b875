/// `application/x-www-form-urlencoded`-style query strings, as routes carry them.
///
/// Parsing: pairs separated by `&`; `+` is a space; keys and values are percent-decoded; a key
/// without `=` gets ""; empty pairs and pairs with an empty key are skipped; when a key repeats,
/// the later value wins. Decoded control characters are allowed here (a query value is data).
public enum QueryString {
    public static func parse(_ query: some StringProtocol) throws(MalformedRouteReason) -> [String: String] {
        let query = Substring(query)
        guard !query.isEmpty else { return [:] }
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let key: Substring
            let value: Substring
            if let equals = pair.firstIndex(of: "=") {
                key = pair[..<equals]
                value = pair[pair.index(after: equals)...]
            } else {
                key = pair
                value = ""
            }
            let decodedKey = try decode(key)
            guard !decodedKey.isEmpty else { continue }
            result[String(decodedKey)] = String(try decode(value))
        }
        return result
    }

    /// `key=value` pairs sorted by key, joined by `&`, every byte outside `A-Z a-z 0-9 - . _ ~`
    /// percent-encoded (so a space is `%20` and `+`, `&`, `=` survive). Sorted so the same
    /// parameters always give the same route.
    public static func encode(_ parameters: [String: String]) -> String {
        parameters.sorted { $0.key < $1.key }
            .map { RoutePercentEncoding.encode($0.key) + "=" + RoutePercentEncoding.encode($0.value) }
            .joined(separator: "&")
    }

    private static func decode(_ text: Substring) throws(MalformedRouteReason) -> Substring {
        switch RoutePercentEncoding.decode(text, plusIsSpace: true, allowControlCharacters: true) {
        case .success(let decoded): return decoded
        case .failure(.badEscape(let escape)): throw .invalidPercentEncoding(escape: escape, in: .query)
        case .failure(.invalidUTF8): throw .invalidUTF8(in: .query)
        case .failure(.controlCharacter(let scalar)): throw .encodedControlCharacter(scalar, in: .query)
        }
    }
}
