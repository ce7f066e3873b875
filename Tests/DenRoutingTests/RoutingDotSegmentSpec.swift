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
