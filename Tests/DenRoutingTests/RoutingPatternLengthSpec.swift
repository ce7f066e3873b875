import DenRouting

import Testing

/// `resolve` refuses routes over 2,048 bytes, so a pattern that only longer routes could match
/// would be dead; it is refused at registration instead, naming the limit.
@Suite("Routing — Patterns must fit in the route length limit")
struct RoutingPatternLengthSpec {
    static let limit = 2048
    static let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"

    /// `count` uuid placeholders: 36 bytes each in a route, about 10 in the pattern.
    static func uuids(_ count: Int) -> [String] { (0..<count).map { "<uuid:u\($0)>" } }

    @Test("a literal pattern of exactly the limit is accepted and matches; one byte more is refused")
    func literalAtLimit() throws {
        let atLimit = String(repeating: "x", count: Self.limit)
        let router = try RoutingTestSupport.router([atLimit])
        #expect(RoutingTestSupport.matchedPattern(router, atLimit) == atLimit)

        let error = try #require(RoutingTestSupport.patternError(atLimit + "x"))
        #expect(error.reason == .tooLong(byteCount: Self.limit + 1))
        #expect(error.description.contains("\(Self.limit)"), "\(error.description)")
    }

    @Test("pattern text over the limit is refused even when its routes would be short")
    func longText() throws {
        let text = (0..<200).map { "<string:name_\($0)>" }.joined(separator: "/")
        #expect(text.utf8.count > Self.limit)
        let error = try #require(RoutingTestSupport.patternError(text))
        #expect(error.reason == .tooLong(byteCount: text.utf8.count))
        #expect(error.description.contains("\(Self.limit)"))
    }

    @Test("a short pattern whose shortest route is over the limit is refused, naming both lengths")
    func shortestRouteTooLong() throws {
        // 55 uuids and a 13-byte literal: shortest route 55*36 + 54 + 1 + 13 = 2048 bytes.
        let fits = (Self.uuids(55) + [String(repeating: "y", count: 13)]).joined(separator: "/")
        var table = RouteTable<Int>()
        try table.add(fits, owner: "m", value: 1)
        let route = try RouteURLBuilder.route(
            for: fits, parameters: Dictionary(uniqueKeysWithValues: (0..<55).map { ("u\($0)", Self.uuid) }))
        #expect(route.utf8.count == Self.limit)
        #expect(try table.compile().resolve(route).get().pattern == fits)

        let tooLong = (Self.uuids(55) + [String(repeating: "y", count: 14)]).joined(separator: "/")
        #expect(tooLong.utf8.count < Self.limit)
        let error = try #require(RoutingTestSupport.patternError(tooLong))
        #expect(error.reason == .shortestRouteTooLong(byteCount: Self.limit + 1))
        for phrase in ["\(Self.limit + 1) bytes", "\(Self.limit)", "never match"] {
            #expect(error.description.contains(phrase), "\(error.description) should mention \(phrase)")
        }
    }

    @Test("a uuid placeholder counts 36 bytes, any other placeholder or 1-byte literal one, plus one per '/'")
    func placeholderMinimums() {
        let base = Self.uuids(55)  // 55 * 36 + 54 = 2,034 bytes
        let sevenMore = base + ["<int:i>", "<double:d>", "<s>", "x", "<t>", "<w>", "<path:rest>"]  // + 7 * 2
        #expect(RoutingTestSupport.patternError(sevenMore.joined(separator: "/")) == nil)
        let eightMore = base + ["<int:i>", "<double:d>", "<s>", "x", "<t>", "<w>", "<v>", "<path:rest>"]
        #expect(RoutingTestSupport.patternError(eightMore.joined(separator: "/"))?.reason
            == .shortestRouteTooLong(byteCount: 2050))
        #expect(RoutingTestSupport.patternError(Self.uuids(57).joined(separator: "/"))?.reason
            == .shortestRouteTooLong(byteCount: 57 * 36 + 56))
    }
}
