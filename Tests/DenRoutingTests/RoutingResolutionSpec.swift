import DenRouting

import Foundation
import Testing

@Suite("Routing — Resolving routes: parsing, decoding, errors")
struct RoutingResolutionSpec {
    let router: CompiledRouter<String>

    init() throws {
        router = try RoutingTestSupport.router([
            "about", "jogs", "jogs/<int:id>", "notes/<title>", "convert/<double:amount>/<from>/<to>",
            "files/<path:rest>",
        ])
    }

    @Test("a match carries value, owner, pattern, route and parameters")
    func matchContents() throws {
        var table = RouteTable<Int>()
        try table.add("jogs/<int:id>", owner: "jogs-module", value: 7)
        let match = try table.compile().resolve("/jogs/42/").get()
        #expect(match.value == 7)
        #expect(match.owner == "jogs-module")
        #expect(match.pattern == "jogs/<int:id>")
        #expect(match.route == "/jogs/42/")
        #expect(match.parameters == ["id": "42"])
        #expect(match.query == [:])
    }

    @Test("path segments are percent-decoded one by one before matching",
          arguments: [
              ("notes/caf%C3%A9", "café"),
              ("notes/café", "café"),
              ("notes/a%2Fb", "a/b"),
              ("notes/a%20b", "a b"),
              ("notes/a+b", "a+b"),
              ("notes/100%25", "100%"),
              ("notes/%3F%23%26", "?#&"),
              ("notes/a b", "a b"),
          ])
    func percentDecoding(route: String, title: String) throws {
        let match = try #require(RoutingTestSupport.match(router, route))
        #expect(match.parameters == ["title": title])
    }

    @Test("literals match their percent-encoded spelling too")
    func encodedLiteral() {
        #expect(RoutingTestSupport.matchedPattern(router, "ab%6Fut") == "about")
    }

    @Test("a catch-all joins its decoded segments with '/'")
    func catchAllJoins() throws {
        let match = try #require(RoutingTestSupport.match(router, "files/docs/my%20guide.md"))
        #expect(match.parameters == ["rest": "docs/my guide.md"])
    }

    @Test("the query string is parsed into parameters, the fragment dropped")
    func query() throws {
        let match = try #require(RoutingTestSupport.match(router, "convert/12.5/USD/EUR?x=1&note=two+words&c=%2F#result"))
        #expect(match.parameters == ["amount": "12.5", "from": "USD", "to": "EUR"])
        #expect(match.query == ["x": "1", "note": "two words", "c": "/"])
        #expect(RoutingTestSupport.match(router, "about#top?x=1")?.query == [:])
        #expect(RoutingTestSupport.match(router, "about?x=1#frag?y=2")?.query == ["x": "1"])
        #expect(RoutingTestSupport.match(router, "about?")?.query == [:])
    }

    @Test("path parameters win over query parameters of the same name")
    func pathWinsOverQuery() throws {
        let match = try #require(RoutingTestSupport.match(router, "jogs/42?id=7&sort=date"))
        #expect(match["id"] == "42")
        #expect(match.int("id") == 42)
        #expect(match.query["id"] == "7")
        #expect(match["sort"] == "date")
    }

    @Test("no matching pattern is .notFound naming the route")
    func notFound() throws {
        for route in ["nothing", "jogs/abc", "jogs/42/edit", "convert/1/USD", "About"] {
            let error = try #require(RoutingTestSupport.error(router, route))
            #expect(error == .notFound(route))
            #expect(error.route == route)
            #expect(error.description.contains("\"\(route)\""))
            #expect(error.description.contains("No module serves"))
        }
    }

    struct BadRoute: CustomTestStringConvertible, Sendable {
        let route: String
        let reason: MalformedRouteReason
        let phrase: String
        var testDescription: String { String(reflecting: route) }
    }

    static let badRoutes: [BadRoute] = [
        .init(route: "", reason: .empty, phrase: "empty"),
        .init(route: "/", reason: .noPath, phrase: "no path"),
        .init(route: "?a=1", reason: .noPath, phrase: "no path"),
        .init(route: "#top", reason: .noPath, phrase: "no path"),
        .init(route: "a//b", reason: .emptySegment(.segment(2)), phrase: "path segment 2 is empty"),
        .init(route: "a\nb", reason: .controlCharacter("\n", byteOffset: 1), phrase: "U+000A at byte 1"),
        .init(route: "a/\u{0}", reason: .controlCharacter("\u{0}", byteOffset: 2), phrase: "U+0000"),
        .init(route: "a?x=\u{7F}", reason: .controlCharacter("\u{7F}", byteOffset: 4), phrase: "U+007F"),
        .init(route: "é/\u{85}", reason: .controlCharacter("\u{85}", byteOffset: 3), phrase: "U+0085"),
        .init(route: "a/%zz", reason: .invalidPercentEncoding(escape: "%zz", in: .segment(2)), phrase: "\"%zz\" in path segment 2"),
        .init(route: "a/b%2", reason: .invalidPercentEncoding(escape: "%2", in: .segment(2)), phrase: "%25"),
        .init(route: "a%", reason: .invalidPercentEncoding(escape: "%", in: .segment(1)), phrase: "two hex digits"),
        .init(route: "a/%C3", reason: .invalidUTF8(in: .segment(2)), phrase: "UTF-8"),
        .init(route: "a/%FF%FE", reason: .invalidUTF8(in: .segment(2)), phrase: "UTF-8"),
        .init(route: "a/x%0Ay", reason: .encodedControlCharacter("\n", in: .segment(2)), phrase: "U+000A"),
        .init(route: "a?q=%zz", reason: .invalidPercentEncoding(escape: "%zz", in: .query), phrase: "the query string"),
        .init(route: "a?%FF=1", reason: .invalidUTF8(in: .query), phrase: "the query string"),
        .init(route: "a/%2e%2E/b", reason: .dotSegment("..", in: .segment(2)), phrase: "no relative segments"),
        .init(route: String(repeating: "a/", count: 1025), reason: .tooLong(byteCount: 2050), phrase: "2050 bytes"),
    ]

    @Test("malformed routes are .malformed with a reason naming what and where", arguments: badRoutes)
    func malformed(bad: BadRoute) throws {
        let error = try #require(RoutingTestSupport.error(router, bad.route))
        #expect(error == .malformed(bad.route, reason: bad.reason))
        #expect(error.description.hasPrefix("Malformed route \""))
        #expect(error.description.contains(bad.phrase), "\(error.description) should mention \(bad.phrase)")
    }

    @Test("control characters are shown escaped, and long routes shortened, in messages")
    func messagesStayReadable() throws {
        let error = try #require(RoutingTestSupport.error(router, "bad\u{1B}[31m"))
        #expect(error.description.contains(#""bad\u{1b}[31m""#))
        #expect(!error.description.contains("\u{1B}"))
        let long = String(repeating: "x", count: 5000)
        let tooLong = try #require(RoutingTestSupport.error(router, long))
        #expect(tooLong.description.count < 400)
    }

    @Test("2,048 bytes is still accepted; one more is not")
    func lengthLimit() throws {
        let atLimit = "notes/" + String(repeating: "x", count: 2048 - 6)
        #expect(RoutingTestSupport.match(router, atLimit)?.parameters["title"]?.count == 2042)
        #expect(RoutingTestSupport.error(router, atLimit + "x") == .malformed(atLimit + "x", reason: .tooLong(byteCount: 2049)))
    }

    @Test("an empty table finds nothing")
    func emptyRouter() {
        #expect(RoutingTestSupport.error(CompiledRouter<Int>(), "about") == .notFound("about"))
    }

    @Test("random input never crashes, and every match is consistent with its pattern")
    func fuzz() throws {
        let alphabet: [Character] = Array("ab1-0.9/?#%&=+<>:~ _2F3AzéЖ🙂") + ["\u{0}", "\n", "\u{7F}", "\u{85}"]
        var generator = RoutingTestSupport.SeededGenerator(seed: 0xDE11)
        let fuzzRouter = try RoutingTestSupport.router([
            "a", "a/<int:i>", "a/<double:d>/b", "a/<s>/<path:p>", "b/<uuid:u>", "<x>/1", "1/<path:r>",
        ])
        for round in 0..<20_000 {
            let length = Int.random(in: 0...(round % 100 == 0 ? 3000 : 24), using: &generator)
            let route = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            switch fuzzRouter.resolve(route) {
            case .success(let match):
                let pattern = try RoutePattern(match.pattern)
                for case .parameter(let name, let type) in pattern.segments {
                    let value = try #require(match.parameters[name])
                    if type != .path { #expect(type.accepts(value), "\(route) gave \(name)=\(value)") }
                }
            case .failure(let error):
                #expect(error.route == route)
                #expect(!error.description.isEmpty)
            }
        }
        // Arbitrary bytes, including invalid UTF-8 repaired by String(decoding:).
        for _ in 0..<5_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = fuzzRouter.resolve(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test("path decoding agrees with Foundation's removingPercentEncoding on random valid routes")
    func decodingMatchesFoundation() throws {
        let router = try RoutingTestSupport.router(["<path:rest>"])
        let tokens = ["a", "Z", "9", "-", ".", "~", "+", " ", "é", "日", "%41", "%c3%a9", "%E6%97%A5", "%2F", "%25", "%20", "%3F"]
        var generator = RoutingTestSupport.SeededGenerator(seed: 7)
        for _ in 0..<2_000 {
            let segments = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                (0..<Int.random(in: 1...4, using: &generator)).map { _ in tokens.randomElement(using: &generator)! }.joined()
            }
            // '.' and '..' are refused (RoutingDotSegmentSpec), not decoded.
            if segments.contains(where: { $0 == "." || $0 == ".." }) { continue }
            let prefix = Bool.random(using: &generator) ? "/" : ""
            let suffix = Bool.random(using: &generator) ? "?q=1#f" : ""
            let route = prefix + segments.joined(separator: "/") + suffix
            let expected = try segments.map { try #require($0.removingPercentEncoding) }.joined(separator: "/")
            // A decoded %2F that leaves an empty or dot part is refused (RoutingDotSegmentSpec).
            let parts = expected.split(separator: "/", omittingEmptySubsequences: false)
            if parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
                #expect(RoutingTestSupport.match(router, route) == nil, "\(route)")
                continue
            }
            #expect(RoutingTestSupport.match(router, route)?.parameters == ["rest": expected], "\(route)")
        }
    }
}
