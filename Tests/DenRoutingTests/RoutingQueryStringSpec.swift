import DenRouting

import Testing

@Suite("Routing — Query strings")
struct RoutingQueryStringSpec {
    @Test("pairs are split on '&' and '=', '+' is a space, escapes are decoded",
          arguments: [
              ("a=1&b=two+words&c=%2F", ["a": "1", "b": "two words", "c": "/"]),
              ("flag", ["flag": ""]),
              ("flag&x=", ["flag": "", "x": ""]),
              ("a=1&a=2", ["a": "2"]),
              ("&&a=1&", ["a": "1"]),
              ("=orphan&b=1", ["b": "1"]),
              ("eq=a=b", ["eq": "a=b"]),
              ("k%20ey=v%2Bw", ["k ey": "v+w"]),
              ("name=Zo%C3%AB&city=K%C3%B8benhavn", ["name": "Zoë", "city": "København"]),
              ("multi=line%0Atext", ["multi": "line\ntext"]),
              ("", [:]),
          ])
    func parse(query: String, expected: [String: String]) throws {
        #expect(try QueryString.parse(query) == expected)
    }

    @Test("parseAll keeps every value of a repeated key, in order; parse keeps the last",
          arguments: [
              ("id=1&id=2&id=3", ["id": ["1", "2", "3"]]),
              ("a=1&b=x&a=2", ["a": ["1", "2"], "b": ["x"]]),
              ("tag&tag=&tag=v", ["tag": ["", "", "v"]]),
              ("k%20ey=1&k+ey=2", ["k ey": ["1", "2"]]),
              ("=x&&a=1", ["a": ["1"]]),
              ("", [:]),
          ])
    func parseAll(query: String, expected: [String: [String]]) throws {
        let all = try QueryString.parseAll(query)
        #expect(all == expected)
        #expect(try QueryString.parse(query) == all.compactMapValues(\.last))
    }

    @Test("bad escapes are refused")
    func badEscape() {
        #expect(throws: MalformedRouteReason.invalidPercentEncoding(escape: "%G1", in: .query)) {
            try QueryString.parse("a=%G1")
        }
        #expect(throws: MalformedRouteReason.invalidUTF8(in: .query)) { try QueryString.parse("a=%C3%28") }
        #expect(throws: MalformedRouteReason.invalidPercentEncoding(escape: "%G1", in: .query)) {
            try QueryString.parseAll("a=1&a=%G1")
        }
    }

    @Test("encoding sorts by key and escapes everything but unreserved characters")
    func encode() throws {
        let parameters = ["z": "last", "a": "x y+z&w=1", "é": "ü/?#%"]
        let encoded = QueryString.encode(parameters)
        #expect(encoded == "a=x%20y%2Bz%26w%3D1&z=last&%C3%A9=%C3%BC%2F%3F%23%25")
        #expect(try QueryString.parse(encoded) == parameters)
    }
}
