import DenWebPages
import Testing

@Suite("Error pages")
struct ErrorPageTests {
    static let html = PageRenderer.errorPage(
        status: 403, title: "This form has expired",
        message: "The page was open too long, so its security token is no longer valid.",
        hint: "Go back, reload the page and try again.")

    @Test("An error page says the status, what was wrong, what to do, and links home")
    func content() throws {
        let tree = try PageTree(Self.html)
        #expect(try tree.texts("//p[@class='den-status']") == ["Error 403"])
        #expect(try tree.texts("//h1") == ["This form has expired"])
        #expect(try tree.texts("//p[@class='den-text']") == ["The page was open too long, so its security token is no longer valid."])
        #expect(try tree.texts("//p[contains(@class,'den-hint')]") == ["Go back, reload the page and try again."])
        #expect(try tree.elements("//main//a").map { $0[attribute: "href"] } == ["/"])
        #expect(try tree.texts("//title") == ["403 This form has expired · Den"])
    }

    @Test("It is a whole styled document whose main den.js can show in place")
    func document() throws {
        let tree = try PageTree(Self.html)
        #expect(Self.html.lowercased().hasPrefix("<!doctype html>"))
        #expect(try tree.elements("//link[@rel='stylesheet']").count == 1)
        #expect(try tree.elements("//main").map { $0[attribute: "id"] } == ["den-main"])
        #expect(try tree.elements("//form").isEmpty)
    }

    @Test("Without a hint there is no hint paragraph")
    func noHint() throws {
        let tree = try PageTree(PageRenderer.errorPage(status: 404, title: "Not found", message: "No route 'x'.", hint: nil))
        #expect(try tree.elements("//p[contains(@class,'den-hint')]").isEmpty)
        #expect(try tree.texts("//p[@class='den-status']") == ["Error 404"])
    }
}
