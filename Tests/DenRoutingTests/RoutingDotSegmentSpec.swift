import DenRouting

import Testing

/// Routes name things; they are not file paths. `.` and `..` would let a catch-all value climb
/// out of its folder (`f/../etc/passwd`), so they are refused everywhere, however spelled.
@Suite("Routing — Dot segments are refused")
struct RoutingDotSegmentSpec {
    let router: CompiledRouter<String>

    init() throws {
        router = try RoutingTestSupport.router(["f/<path:rest>", "n/<s>", "<x>/<path:tail>"])
    }

    @Test("'.' and '..' segments make a route malformed, raw or percent-encoded in any case",
          arguments: [
              ("f/../etc/passwd", "..", 2),
              ("f/./x", ".", 2),
              ("f/x/..", "..", 3),
              ("../f/x", "..", 1),
              ("f/%2E%2E/etc/passwd", "..", 2),
              ("f/%2e%2e/etc/passwd", "..", 2),
              ("f/%2e%2E", "..", 2),
              ("f/.%2e/x", "..", 2),
              ("f/%2E", ".", 2),
              ("n/..?q=1", "..", 2),
              ("/f/../", "..", 2),
          ])
    func refused(route: String, segment: String, number: Int) throws {
        let error = try #require(RoutingTestSupport.error(router, route))
        #expect(error == .malformed(route, reason: .dotSegment(segment, in: .segment(number))))
        #expect(error.description.contains("'\(segment)' is not allowed"), "\(error.description)")
        #expect(error.description.contains("no relative segments"), "\(error.description)")
    }

    @Test("dots inside a longer segment are ordinary text",
          arguments: [("f/.../x", ".../x"), ("f/.hidden", ".hidden"), ("f/a..b/c.", "a..b/c."), ("f/%2E%2E%2E", "...")])
    func dotsInText(route: String, rest: String) throws {
        let match = try #require(RoutingTestSupport.match(router, route))
        #expect(match.pattern == "f/<path:rest>")
        #expect(match.parameters["rest"] == rest)
    }

    @Test("an encoded '/' (%2F) cannot bring back a dot or empty part into a catch-all value",
          arguments: [
              ("f/a%2F..%2Fb", RoutePart.segment(2), MalformedRouteReason.dotSegment("..", in: .segment(2))),
              ("f/x/%2E%2E%2Fetc", .segment(3), .dotSegment("..", in: .segment(3))),
              ("f/a%2F.", .segment(2), .dotSegment(".", in: .segment(2))),
              ("f/a%2F%2Fb", .segment(2), .encodedEmptyPart(in: .segment(2))),
              ("f/a%2F", .segment(2), .encodedEmptyPart(in: .segment(2))),
              ("f/%2Fa", .segment(2), .encodedEmptyPart(in: .segment(2))),
              ("x/%2f", .segment(2), .encodedEmptyPart(in: .segment(2))),
          ])
    func encodedSeparatorInCatchAll(route: String, part: RoutePart, reason: MalformedRouteReason) throws {
        let error = try #require(RoutingTestSupport.error(router, route))
        #expect(error == .malformed(route, reason: reason))
        #expect(error.description.contains("\(part)"), "\(error.description)")
    }

    @Test("an encoded '/' between ordinary parts is kept, and a string placeholder may hold one")
    func encodedSeparatorKept() throws {
        #expect(RoutingTestSupport.match(router, "f/a%2Fb")?.parameters["rest"] == "a/b")
        #expect(RoutingTestSupport.match(router, "n/a%2F..")?.parameters["s"] == "a/..")
    }

    /// The documented guarantee (README "Dot segments", `RouteParameterType.path`): whatever the
    /// route, a catch-all value is one or more non-empty parts separated by '/', none '.' or '..'.
    @Test("generated routes: every catch-all value keeps the <path:> guarantee")
    func catchAllGuaranteeOnGeneratedRoutes() throws {
        let tokens = ["a", "b", ".", "..", "%2E", "%2e", "%2F", "%2f", "/", "%25", "é", "%C3%A9", "~", "-"]
        var generator = RoutingTestSupport.SeededGenerator(seed: 0x2F2F)
        var matched = 0, refused = 0
        for _ in 0..<20_000 {
            let body = (0..<Int.random(in: 1...8, using: &generator)).map { _ in tokens.randomElement(using: &generator)! }.joined()
            let route = ["f/", "q/", "x/y/"].randomElement(using: &generator)! + body
            switch router.resolve(route) {
            case .success(let match):
                matched += 1
                for (name, value) in match.parameters where name == "rest" || name == "tail" {
                    let parts = value.split(separator: "/", omittingEmptySubsequences: false)
                    #expect(!parts.isEmpty && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." },
                            "\(route) gave \(name)=\(value)")
                }
            case .failure(let error):
                refused += 1
                #expect(!error.description.isEmpty)
            }
        }
        // Both outcomes were exercised, so the check above is not vacuous.
        #expect(matched > 1_000 && refused > 1_000, "matched \(matched), refused \(refused)")
    }

    @Test("dot segments are refused in patterns at registration", arguments: [".", "..", "a/.", "./a", "a/../b"])
    func refusedInPatterns(pattern: String) throws {
        var table = RouteTable<Int>()
        let error = try #require(throws: RoutePatternError.self) { try table.add(pattern, owner: "m", value: 1) }
        #expect(error.reason == .dotSegment)
        #expect(table.isEmpty)
    }

    @Test("URL generation refuses '.' and '..' as values, since no route could carry them",
          arguments: [
              ("n/<s>", "s", ".", RouteParameterType.string),
              ("n/<s>", "s", "..", .string),
              ("f/<path:rest>", "rest", "a/../b", .path),
              ("f/<path:rest>", "rest", ".", .path),
          ])
    func generationRefuses(pattern: String, name: String, value: String, type: RouteParameterType) throws {
        let error = try #require(throws: RouteGenerationError.self) {
            try RouteURLBuilder.route(for: pattern, parameters: [name: value])
        }
        #expect(error == .invalidParameter(name: name, value: value, type: type, pattern: pattern))
        #expect(error.description.contains("'..'"), "\(error.description)")
    }
}
