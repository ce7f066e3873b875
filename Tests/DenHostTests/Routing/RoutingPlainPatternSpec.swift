@testable import DenHost
import Testing

/// Patterns of plain ASCII literals and well-formed placeholders are read by bytes (a hundred
/// modules each register some at start); every other pattern goes to the full parser. The
/// shortcut must never read a pattern differently, nor take one the full parser refuses.
@Suite("Routing — plain patterns read by bytes")
struct RoutingPlainPatternSpec {
    @Test("the byte reader agrees with the full parser, or leaves the pattern to it", arguments: [
        "about", "jogs/about", "a-b_c.d~e", "v1.2/x+y/k=v;w/me@host:1", "bench-m17", "a/b/c/d/e/f",
        "/about", "about/", "", "/", "a//b", ".", "..", "a/./b", "a/../b", "...", "a?b", "a#b", "a b", "a%20b",
        "café", "<int:id>", "jogs/<int:id>", "a<b", "x\u{7F}y", "tab\there",
        "jogs/<int:id>/edit", "<name>", "files/<path:rest>", "<path:rest>/x", "<int:a>/<int:a>", "<int:a>/<string:A>",
        "<int>", "<string>", "<path>", "<bogus:x>", "<:x>", "<int:>", "<>", "<int:1x>", "<int:_x9>", "<int:a-b>",
        "<int:a:b>", "a<int:x>", "<int:x>b", "<<int:x>>", "<int:x", "int:x>", "<int:é>", "<Int:x>", "x/<uuid:u>/<double:d>",
        "<int:x>/", "/<int:x>", "a/<int:x>//b", "<string:x>?q", String(repeating: "a", count: RouteLengthLimit.maximumByteCount - 7) + "/<int:x>",
        String(repeating: "a", count: RouteLengthLimit.maximumByteCount),
        String(repeating: "a", count: RouteLengthLimit.maximumByteCount + 1),
    ])
    func agrees(pattern: String) {
        let full = try? RoutePatternParser.parseInFull(pattern)
        if let plain = RoutePatternParser.plainSegments(pattern) {
            #expect(plain == full, "read differently")
            #expect(!plain.isEmpty)
        }
        #expect((try? RoutePatternParser.parse(pattern)) == full)
    }

    @Test("plain literals and well-formed placeholders are taken by the byte reader; anything unusual is not")
    func takes() {
        #expect(RoutePatternParser.plainSegments("jogs/about") == [.literal("jogs"), .literal("about")])
        #expect(RoutePatternParser.plainSegments("jogs/<int:id>/edit")
            == [.literal("jogs"), .parameter(name: "id", type: .int), .literal("edit")])
        #expect(RoutePatternParser.plainSegments("<who>/files/<path:rest>")
            == [.parameter(name: "who", type: .string), .literal("files"), .parameter(name: "rest", type: .path)])
        #expect(RoutePatternParser.plainSegments("<int:a>/<int:a>") == nil)
        #expect(RoutePatternParser.plainSegments("<int>") == nil)
        #expect(RoutePatternParser.plainSegments("/about") == nil)
        #expect(RoutePatternParser.plainSegments("a/../b") == nil)
    }
}
