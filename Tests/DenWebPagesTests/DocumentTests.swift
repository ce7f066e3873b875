import DenKit
import DenWebPages
import Testing

@Suite("The HTML document")
struct DocumentTests {
    static let html = PageRenderer.page(Screens.input([.text("Hello")], title: "About Den"))

    @Test("An HTML5 document in English, UTF-8, sized for phones")
    func head() throws {
        #expect(Self.html.lowercased().hasPrefix("<!doctype html>"))
        let tree = try PageTree(Self.html)
        #expect(try tree.element("/html")?[attribute: "lang"] == "en")
        #expect(try tree.element("//head/meta[@charset]")?[attribute: "charset"]?.lowercased() == "utf-8")
        let viewport = try tree.element("//head/meta[@name='viewport']")?[attribute: "content"]
        #expect(viewport?.contains("width=device-width") == true)
    }

    @Test("The title is the screen's title")
    func title() throws {
        #expect(try PageTree(Self.html).texts("//head/title") == ["About Den · Den"])
    }

    @Test("The stylesheet and the deferred script come from /_assets")
    func assets() throws {
        let tree = try PageTree(Self.html)
        #expect(try tree.elements("//head/link[@rel='stylesheet']").map { $0[attribute: "href"] } == ["/_assets/den.css"])
        let script = try #require(try tree.element("//head/script"))
        #expect(script[attribute: "src"] == "/_assets/den.js")
        #expect(script[attribute: "defer"] != nil)
    }

    @Test("Nothing inline: no script body, no style element or attribute, no event handler (CSP 'self')")
    func nothingInline() throws {
        let tree = try PageTree(Self.html)
        #expect(try tree.elements("//script").allSatisfy { ($0.stringValue ?? "").isEmpty && $0[attribute: "src"] != nil })
        #expect(try tree.elements("//style").isEmpty)
        let attributes = try tree.allAttributes().map { $0.name.lowercased() }
        #expect(!attributes.contains("style"))
        #expect(!attributes.contains { $0.hasPrefix("on") })
    }

    @Test("Nothing external: every link and asset is on this server")
    func nothingExternal() throws {
        let tree = try PageTree(Self.html)
        let urls = try tree.allAttributes().filter { ["href", "src", "action"].contains($0.name) }.map(\.value)
        #expect(!urls.isEmpty)
        #expect(urls.allSatisfy { $0.hasPrefix("/") && !$0.hasPrefix("//") })
    }

    @Test("The page has a way home and exactly one main, the one den.js swaps")
    func landmarks() throws {
        let tree = try PageTree(Self.html)
        #expect(try tree.elements("//header//a").map { $0[attribute: "href"] } == ["/"])
        #expect(try tree.elements("//main").map { $0[attribute: "id"] } == ["den-main"])
    }

    @Test("A screen without a title is titled by its route")
    func untitled() throws {
        let tree = try PageTree(PageRenderer.page(Screens.input([], title: "", route: "jogs/new")))
        #expect(try tree.texts("//h1") == ["jogs/new"])
        #expect(try tree.texts("//title") == ["Den"])
    }
}
