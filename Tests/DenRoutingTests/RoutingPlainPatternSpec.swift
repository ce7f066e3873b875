@testable import DenRouting
import DenRouting
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
        // The manifest check's byte test takes only patterns the parser reads as plain literals.
        if RoutePatternParser.isPlainLiteralPattern(pattern) {
            #expect(full?.isEmpty == false, "taken, but the parser refuses it")
            #expect(full?.allSatisfy { if case .literal = $0 { true } else { false } } == true)
        }
    }

    @Test("over thousands of short patterns of awkward characters, the byte test never takes one the parser refuses")
    func literalTestAgainstParser() {
        let pieces = ["a", "b", "/", ".", "<", ">", ":", "int", "é", " ", "-", "?", "~"]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<5_000 {
            var pattern = ""
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for step in 0..<Int(seed >> 61) + Int(seed >> 59 & 3) {
                pattern += pieces[Int((seed >> UInt64(step * 4 % 56)) & 0xFF) % pieces.count]
            }
            guard RoutePatternParser.isPlainLiteralPattern(pattern) else { continue }
            let parsed = try? RoutePatternParser.parseInFull(pattern)
            #expect(parsed?.allSatisfy { if case .literal = $0 { true } else { false } } == true, "\(pattern)")
        }
    }

    @Test("the manifest check's byte test takes plain literals and nothing else")
    func plainLiterals() {
        for pattern in ["about", "jogs/new", "a-b_c.d~e", "bench-m17", "v1.2/x+y/k=v;w/me@host:1", "a/.../b"] {
            #expect(RoutePatternParser.isPlainLiteralPattern(pattern), "\(pattern)")
        }
        for pattern in ["", "/", "/about", "about/", "a//b", ".", "..", "a/./b", "a/../b", "jogs/<int:id>", "a b",
                        "café", "a?b", String(repeating: "a", count: RouteLengthLimit.maximumByteCount + 1)] {
            #expect(!RoutePatternParser.isPlainLiteralPattern(pattern), "\(pattern)")
        }
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
