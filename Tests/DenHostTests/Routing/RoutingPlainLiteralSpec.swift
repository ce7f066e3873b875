@testable import DenHost
import Testing

/// Patterns of plain ASCII literals are read by bytes (a hundred modules each register some at
/// start); every other pattern goes to the full parser. The shortcut must never read a pattern
/// differently, nor take one the full parser refuses.
@Suite("Routing — plain literal patterns read by bytes")
struct RoutingPlainLiteralSpec {
    @Test("the byte reader agrees with the full parser, or leaves the pattern to it", arguments: [
        "about", "jogs/about", "a-b_c.d~e", "v1.2/x+y/k=v;w/me@host:1", "bench-m17", "a/b/c/d/e/f",
        "/about", "about/", "", "/", "a//b", ".", "..", "a/./b", "a/../b", "...", "a?b", "a#b", "a b", "a%20b",
        "café", "<int:id>", "jogs/<int:id>", "a<b", "x\u{7F}y", "tab\there",
        String(repeating: "a", count: RouteLengthLimit.maximumByteCount),
        String(repeating: "a", count: RouteLengthLimit.maximumByteCount + 1),
    ])
    func agrees(pattern: String) {
        let full = try? RoutePatternParser.parseInFull(pattern)
        if let plain = RoutePatternParser.plainLiteralSegments(pattern) {
            #expect(plain == full, "read differently")
            #expect(!plain.isEmpty)
        }
        #expect((try? RoutePatternParser.parse(pattern)) == full)
    }

    @Test("plain literals are taken by the byte reader; anything with structure is not")
    func takes() {
        #expect(RoutePatternParser.plainLiteralSegments("jogs/about") == [.literal("jogs"), .literal("about")])
        #expect(RoutePatternParser.plainLiteralSegments("jogs/<int:id>") == nil)
        #expect(RoutePatternParser.plainLiteralSegments("/about") == nil)
        #expect(RoutePatternParser.plainLiteralSegments("a/../b") == nil)
    }
}
