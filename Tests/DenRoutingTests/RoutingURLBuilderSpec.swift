import DenRouting

import Testing

@Suite("Routing — URL generation and round trips")
struct RoutingURLBuilderSpec {
    @Test("placeholders are filled and percent-encoded; extras become a sorted query")
    func builds() throws {
        #expect(try RouteURLBuilder.route(for: "jogs/<int:id>", parameters: ["id": "42"]) == "jogs/42")
        #expect(try RouteURLBuilder.route(for: "/about/") == "about")
        #expect(try RouteURLBuilder.route(for: "notes/<title>", parameters: ["title": "a b/c?"]) == "notes/a%20b%2Fc%3F")
        #expect(try RouteURLBuilder.route(for: "files/<path:rest>", parameters: ["rest": "docs/my guide.md"])
            == "files/docs/my%20guide.md")
        #expect(try RouteURLBuilder.route(for: "convert/<double:x>/<from>/<to>",
                                          parameters: ["x": "12.5", "from": "USD", "to": "EUR", "z": "1", "b": "two words"])
            == "convert/12.5/USD/EUR?b=two%20words&z=1")
        #expect(try RouteURLBuilder.route(for: "café/<s>", parameters: ["s": "ü"]) == "caf%C3%A9/%C3%BC")
        #expect(try RouteURLBuilder.route(for: RoutePattern("a/<int:n>"), parameters: ["n": "-1"]) == "a/-1")
    }

    @Test("a missing parameter is an error naming it and its type")
    func missing() throws {
        let error = try #require(throws: RouteGenerationError.self) {
            try RouteURLBuilder.route(for: "jogs/<int:id>", parameters: ["jog": "42"])
        }
        #expect(error == .missingParameter(name: "id", type: .int, pattern: "jogs/<int:id>"))
        #expect(error.description.contains("parameter \"id\" is missing"))
        #expect(error.description.contains("<int:id>"))
        #expect(error.description.contains("an integer"))
    }

    @Test("each value is checked against its placeholder's type",
          arguments: [
              ("jogs/<int:id>", "id", "abc", RouteParameterType.int, "an integer"),
              ("jogs/<int:id>", "id", "9223372036854775808", .int, "within Int64"),
              ("pay/<double:x>", "x", "1e3", .double, "decimal number"),
              ("pay/<double:x>", "x", "nan", .double, "finite"),
              ("u/<uuid:u>", "u", "123", .uuid, "UUID"),
              ("n/<s>", "s", "", .string, "non-empty"),
              ("n/<s>", "s", "line\nbreak", .string, "control characters"),
              ("f/<path:p>", "p", "a//b", .path, "non-empty segments"),
              ("f/<path:p>", "p", "/a", .path, "non-empty segments"),
              ("f/<path:p>", "p", "", .path, "non-empty segments"),
          ])
    func invalid(pattern: String, name: String, value: String, type: RouteParameterType, phrase: String) throws {
        let error = try #require(throws: RouteGenerationError.self) {
            try RouteURLBuilder.route(for: pattern, parameters: [name: value])
        }
        #expect(error == .invalidParameter(name: name, value: value, type: type, pattern: pattern))
        #expect(error.description.contains("parameter \"\(name)\""))
        #expect(error.description.contains("<\(type):\(name)> expects"))
        #expect(error.description.contains(phrase), "\(error.description) should mention \(phrase)")
    }

    @Test("other failures: bad pattern, unnamed extra, too long")
    func otherFailures() throws {
        let badPattern = try #require(throws: RouteGenerationError.self) { try RouteURLBuilder.route(for: "a//b") }
        guard case .invalidPattern(let patternError) = badPattern else {
            Issue.record("expected .invalidPattern, got \(badPattern)")
            return
        }
        #expect(patternError.reason == .emptySegment)
        #expect(badPattern.description.contains("segment 2 is empty"))

        #expect(throws: RouteGenerationError.emptyQueryParameterName(pattern: "about")) {
            try RouteURLBuilder.route(for: "about", parameters: ["": "x"])
        }
        #expect(throws: RouteGenerationError.self) {
            try RouteURLBuilder.route(for: "n/<s>", parameters: ["s": String(repeating: "é", count: 400)])
        }
    }

    static let roundTrips: [(String, [String: String])] = [
        ("about", [:]),
        ("jogs/<int:id>", ["id": "-9223372036854775808"]),
        ("convert/<double:amount>/<from>/<to>", ["amount": "12.5", "from": "USD", "to": "EUR", "x": "1"]),
        ("notes/<title>", ["title": "two words & more = fun + 100% ?#"]),
        ("notes/<title>", ["title": "a/b"]),
        ("notes/<title>", ["title": "Grüße 日本 🙂", "lang": "de ü", "empty": ""]),
        ("files/<path:rest>", ["rest": "docs/my guide/ü 1.md"]),
        ("files/<path:rest>", ["rest": "x"]),
        ("u/<uuid:u>/<path:rest>", ["u": "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "rest": "a+b/c%d", "q": "a&b=c"]),
        ("n/<s>", ["s": "..."]),
        ("n/<s>", ["s": "x", ".": ".."]),
        ("n/<s>", ["s": "+"]),
    ]

    @Test("resolve(generate(pattern, parameters)) gives the parameters back", arguments: roundTrips)
    func roundTrip(pattern: String, parameters: [String: String]) throws {
        var table = RouteTable<Int>()
        try table.add(pattern, owner: "m", value: 1)
        let route = try RouteURLBuilder.route(for: pattern, parameters: parameters)
        let match = try table.compile().resolve(route).get()
        #expect(match.pattern == pattern)
        let names = Set(try RoutePattern(pattern).parameterNames)
        #expect(match.parameters == parameters.filter { names.contains($0.key) })
        #expect(match.query == parameters.filter { !names.contains($0.key) })
    }

    @Test("round trips hold for random values of every type")
    func randomRoundTrips() throws {
        var table = RouteTable<Int>()
        let pattern = "r/<int:i>/<double:d>/<uuid:u>/<s>/<path:p>"
        try table.add(pattern, owner: "m", value: 1)
        let router = table.compile()
        var generator = RoutingTestSupport.SeededGenerator(seed: 42)
        let characters: [Character] = Array("aZ09 -._~!$&'()*+,;=:@/?#%[]é日🙂")
        func text(_ minimum: Int) -> String {
            while true {
                let text = String((0..<Int.random(in: minimum...12, using: &generator)).map { _ in characters.randomElement(using: &generator)! })
                // '.' and '..' cannot be a segment (RoutingDotSegmentSpec): draw again.
                if !text.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) { return text }
            }
        }
        for _ in 0..<500 {
            var path = text(1).split(separator: "/").joined(separator: "/")
            if path.isEmpty { path = "p" }
            let parameters = [
                "i": String(Int64.random(in: .min ... .max, using: &generator)),
                "d": String(Int.random(in: -1_000_000...1_000_000, using: &generator)) + "." + String(Int.random(in: 0...999, using: &generator)),
                "u": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
                "s": text(1),
                "p": path,
                "extra": text(0),
            ]
            let route = try RouteURLBuilder.route(for: pattern, parameters: parameters)
            let match = try router.resolve(route).get()
            #expect(match.parameters.merging(match.query) { path, _ in path } == parameters, "via \(route)")
        }
    }
}
