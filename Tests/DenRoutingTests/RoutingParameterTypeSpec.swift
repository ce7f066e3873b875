import DenRouting

import Foundation
import Testing

@Suite("Routing — Typed placeholders: what each type accepts")
struct RoutingParameterTypeSpec {
    @Test("<int:> accepts an optional minus and digits within Int64",
          arguments: ["0", "42", "-7", "007", "-0", "9223372036854775807", "-9223372036854775808"])
    func intAccepts(value: String) {
        #expect(RouteParameterType.int.accepts(value))
    }

    @Test("<int:> rejects everything else, including overflow",
          arguments: ["", "-", "+1", "1.0", "1e3", "0x1F", " 1", "1_000", "٣", "abc",
                      "9223372036854775808", "-9223372036854775809", "99999999999999999999999"])
    func intRejects(value: String) {
        #expect(!RouteParameterType.int.accepts(value))
    }

    @Test("<double:> accepts plain decimals",
          arguments: ["12.5", "-3", "0", "0.5", "-0.0", "1000000", String(repeating: "9", count: 300)])
    func doubleAccepts(value: String) {
        #expect(RouteParameterType.double.accepts(value))
    }

    @Test("<double:> rejects exponents, bare dots, nan, inf and overflow to infinity",
          arguments: ["", "-", ".5", "5.", "1e3", "1E-2", "+1", "nan", "NaN", "inf", "-infinity",
                      "1.2.3", "1,5", "0x1p3", " 1", String(repeating: "9", count: 400)])
    func doubleRejects(value: String) {
        #expect(!RouteParameterType.double.accepts(value))
    }

    @Test("<uuid:> accepts 8-4-4-4-12 hex in either case",
          arguments: ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f",
                      "00000000-0000-0000-0000-000000000000", "e621E1F8-c36c-495A-93fc-0C247a3e6E5F"])
    func uuidAccepts(value: String) {
        #expect(RouteParameterType.uuid.accepts(value))
    }

    @Test("<uuid:> rejects anything else",
          arguments: ["", "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}",
                      "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F0", "E621E1F8_C36C_495A_93FC_0C247A3E6E5F"])
    func uuidRejects(value: String) {
        #expect(!RouteParameterType.uuid.accepts(value))
    }

    @Test("<string:> and <path:> segments accept any non-empty text")
    func stringAccepts() {
        #expect(RouteParameterType.string.accepts("anything at all ✓"))
        #expect(!RouteParameterType.string.accepts(""))
    }

    @Test("a typed placeholder that rejects a segment leaves the route unmatched")
    func typedMismatchIsNotFound() throws {
        let router = try RoutingTestSupport.router(["jogs/<int:id>", "pay/<double:x>", "u/<uuid:u>"])
        #expect(RoutingTestSupport.matchedPattern(router, "jogs/42") == "jogs/<int:id>")
        #expect(RoutingTestSupport.error(router, "jogs/4x2") == .notFound("jogs/4x2"))
        #expect(RoutingTestSupport.error(router, "jogs/9223372036854775808") == .notFound("jogs/9223372036854775808"))
        #expect(RoutingTestSupport.error(router, "pay/1e3") == .notFound("pay/1e3"))
        #expect(RoutingTestSupport.error(router, "u/not-a-uuid") == .notFound("u/not-a-uuid"))
    }

    @Test("typed accessors convert path and query values")
    func typedAccessors() throws {
        let router = try RoutingTestSupport.router(["convert/<double:amount>/<from>/<to>/<int:n>/<uuid:u>"])
        let match = try #require(RoutingTestSupport.match(
            router, "convert/12.5/USD/EUR/-3/e621e1f8-c36c-495a-93fc-0c247a3e6e5f?page=2&ratio=0.5&bad=x"))
        #expect(match.double("amount") == 12.5)
        #expect(match.int("n") == -3)
        #expect(match.uuid("u") == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(match.string("from") == "USD")
        #expect(match.int("page") == 2)
        #expect(match.double("ratio") == 0.5)
        #expect(match.int("bad") == nil)
        #expect(match.int("from") == nil)
        #expect(match.int("missing") == nil)
        #expect(match.uuid("from") == nil)
    }
}
