import DenRouting

import Testing

@Suite("Routing — Route patterns: syntax and errors")
struct RoutingPatternSpec {
    @Test("parses literals and every placeholder type")
    func parsesSegments() throws {
        let pattern = try RoutePattern("/files/<int:id>/<double:x>/<uuid:u>/<string:s>/<name>/<path:rest>/")
        #expect(pattern.segments == [
            .literal("files"),
            .parameter(name: "id", type: .int),
            .parameter(name: "x", type: .double),
            .parameter(name: "u", type: .uuid),
            .parameter(name: "s", type: .string),
            .parameter(name: "name", type: .string),
            .parameter(name: "rest", type: .path),
        ])
        #expect(pattern.parameterNames == ["id", "x", "u", "s", "name", "rest"])
        #expect(pattern.parameterType(named: "x") == .double)
        #expect(pattern.shape == "files/<int>/<double>/<uuid>/<string>/<string>/<path>")
        #expect(pattern.text == "/files/<int:id>/<double:x>/<uuid:u>/<string:s>/<name>/<path:rest>/")
    }

    @Test("leading and trailing slashes are ignored", arguments: ["about", "/about", "about/", "//about//"])
    func slashesIgnored(text: String) throws {
        #expect(try RoutePattern(text).segments == [.literal("about")])
    }

    @Test("literals accept unreserved, sub-delimiter and non-ASCII characters",
          arguments: ["a-b_c.d~e", "v1.2", "x+y", "k=v;w", "me@host:1", "café", "日本"])
    func validLiterals(text: String) throws {
        #expect(try RoutePattern(text).segments == [.literal(text)])
    }

    struct BadPattern: CustomTestStringConvertible, Sendable {
        let text: String
        let reason: RoutePatternError.Reason
        let segment: Int?
        /// Phrases the message must contain: what is wrong and how to fix it.
        let phrases: [String]
        var testDescription: String { "\"\(text)\"" }
    }

    static let badPatterns: [BadPattern] = [
        .init(text: "", reason: .empty, segment: nil, phrases: ["no segments", "at least one segment"]),
        .init(text: "///", reason: .empty, segment: nil, phrases: ["no segments"]),
        .init(text: "a//b", reason: .emptySegment, segment: 2, phrases: ["segment 2 is empty", "Remove the extra '/'"]),
        .init(text: "a/<foo:x>", reason: .unknownType("foo"), segment: 2,
              phrases: ["segment 2", "unknown placeholder type 'foo'", "int, double, uuid, string, path"]),
        .init(text: "<:x>", reason: .unknownType(""), segment: 1, phrases: ["empty type"]),
        .init(text: "a/<int:1x>", reason: .invalidName("1x"), segment: 2, phrases: ["invalid placeholder name '1x'", "starts with a letter"]),
        .init(text: "a/<int:>", reason: .invalidName(""), segment: 2, phrases: ["without a name"]),
        .init(text: "<>", reason: .invalidName(""), segment: 1, phrases: ["without a name"]),
        .init(text: "<a-b>", reason: .invalidName("a-b"), segment: 1, phrases: ["'a-b'"]),
        .init(text: "<int:a:b>", reason: .invalidName("a:b"), segment: 1, phrases: ["'a:b'"]),
        .init(text: "a/<int>", reason: .missingName(.int), segment: 2, phrases: ["<int:name>"]),
        .init(text: "<int:id>/<string:id>", reason: .duplicateName("id"), segment: 2, phrases: ["reuses placeholder name 'id'"]),
        .init(text: "a/<int:id", reason: .unclosedPlaceholder, segment: 2, phrases: ["never closes", "'>'"]),
        .init(text: "a/int:id>", reason: .unopenedPlaceholder, segment: 2, phrases: ["'>' without a matching '<'"]),
        .init(text: "<<x>>", reason: .nestedPlaceholder, segment: 1, phrases: ["cannot nest"]),
        .init(text: "files/<path:rest>/edit", reason: .catchAllNotLast("rest"), segment: 2,
              phrases: ["segment 2", "must be the last segment", "<string:rest>"]),
        .init(text: "login?next=x", reason: .queryOrFragment("?"), segment: 1, phrases: ["'?'", "query", "paths only"]),
        .init(text: "a/b#top", reason: .queryOrFragment("#"), segment: 2, phrases: ["'#'", "fragment"]),
        .init(text: "v<int:n>", reason: .mixedSegment, segment: 1, phrases: ["mixes literal text and a placeholder", "v/<int:n>"]),
        .init(text: "a/<id>.json", reason: .mixedSegment, segment: 2, phrases: ["mixes"]),
        .init(text: "<a><b>", reason: .mixedSegment, segment: 1, phrases: ["mixes"]),
        .init(text: "a b", reason: .invalidCharacter(" "), segment: 1, phrases: ["U+0020"]),
        .init(text: "caf%C3%A9", reason: .invalidCharacter("%"), segment: 1, phrases: ["Percent-encoding is not allowed"]),
        .init(text: "a/\"q\"", reason: .invalidCharacter("\""), segment: 2, phrases: ["cannot contain"]),
        .init(text: "a/\u{7}", reason: .invalidCharacter("\u{7}"), segment: 2, phrases: ["U+0007"]),
        .init(text: "a/../b", reason: .dotSegment, segment: 2, phrases: ["dot segment"]),
    ]

    @Test("malformed patterns are rejected with a precise message", arguments: badPatterns)
    func rejects(bad: BadPattern) throws {
        let error = try #require(RoutingTestSupport.patternError(bad.text))
        #expect(error.reason == bad.reason)
        #expect(error.segmentNumber == bad.segment)
        #expect(error.pattern == bad.text)
        #expect(error.description.hasPrefix("Invalid route pattern \"\(bad.text)\": "))
        for phrase in bad.phrases {
            #expect(error.description.contains(phrase), "\(error.description) should mention \(phrase)")
        }
    }

    @Test("a query mark is reported before other problems after it")
    func queryReportedFirst() throws {
        let error = try #require(RoutingTestSupport.patternError("a?x=//y"))
        #expect(error.reason == .queryOrFragment("?"))
    }

    @Test("the table refuses a malformed pattern and stays unchanged")
    func tableRefusesMalformed() {
        var table = RouteTable<Int>()
        #expect(throws: RoutePatternError.self) { try table.add("a//b", owner: "m", value: 1) }
        #expect(table.isEmpty)
    }
}
