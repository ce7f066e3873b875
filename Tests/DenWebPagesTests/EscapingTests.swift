import DenKit
import DenWebPages
import Testing

/// A module's strings are data: wherever one goes, the reader sees it exactly as written and it
/// never becomes markup, an attribute, a script or a link elsewhere.
@Suite("Escaping: a module cannot inject markup")
struct EscapingTests {
    static let hostile = #"<script>alert("x")</script> & ' " &lt; &amp; </main><img src=x onerror=alert(1)>"#

    /// A screen with the hostile string in every place text goes.
    static func hostileInput() -> PageInput {
        let h = hostile
        return PageInput(
            route: "jogs/" + h,
            screen: Screen(title: h, elements: [
                .heading(h),
                .text(h, style: .body), .text(h, style: .emphasis), .text(h, style: .caption),
                .field(Field(id: h, label: h, value: h, placeholder: h, error: h, changes: true)),
                .field(Field(id: "pick" + h, label: h, value: h, kind: .choice, options: [h, "plain"])),
                .button(Button(id: h, label: h, role: .primary)),
                .link(Link(label: h, route: h)),
                .list(ItemList(title: h, items: [ItemList.Item(title: h, detail: h, route: h), ItemList.Item(title: h)],
                               emptyText: h)),
                .table(Table(columns: [h], rows: [[h]])),
                .banner(Banner(.error, h)),
                .unsupported(type: h),
            ]),
            notices: [h], errors: [h], openURLs: ["https://example.org/?q=\"><script>x</script>"],
            backRoute: h, csrfToken: h, moduleID: h)
    }

    @Test("The page still parses as one tree: no string closed an element or an attribute")
    func pageParses() throws {
        let tree = try PageTree(PageRenderer.page(Self.hostileInput()))
        // Only the page's own script, and no event handler attributes anywhere.
        #expect(try tree.elements("//script").map { $0[attribute: "src"] } == ["/_assets/den.js"])
        #expect(try tree.elements("//img").isEmpty)
        #expect(try tree.allAttributes().filter { $0.name.lowercased().hasPrefix("on") }.isEmpty)
        #expect(try tree.elements("//main").count == 1)
    }

    @Test("Text reads back exactly as the module wrote it, entities included")
    func textRoundTrips() throws {
        let tree = try PageTree(PageRenderer.page(Self.hostileInput()))
        let h = Self.hostile
        #expect(try tree.texts("//title") == ["\(h) · Den"])
        #expect(try tree.texts("//h1") == [h])
        #expect(try tree.texts("//h2") == [h])
        #expect(try tree.texts("//p[@class='den-text']") == [h])
        #expect(try tree.texts("//em") == [h])
        #expect(try tree.texts("//small") == [h])
        #expect(try tree.texts("//label") == [h, h])
        #expect(try tree.texts("//p[@class='den-field-error']") == [h])
        #expect(try tree.texts("//button[@name='_action']") == [h])
        #expect(try tree.texts("//p[@class='den-link']/a") == [h])
        #expect(try tree.texts("//div[@class='den-list']/h3") == [h])
        #expect(try tree.texts("//span[@class='den-item-title']") == [h, h])
        #expect(try tree.texts("//span[@class='den-item-detail']") == [h])
        #expect(try tree.texts("//th") == [h])
        #expect(try tree.texts("//td") == [h])
        #expect(try tree.texts("//span[@class='den-banner-text']") == [h, h, h])
        #expect(try tree.texts("//p[@class='den-unsupported']") == ["(this screen has a '\(h)' element this page cannot draw)"])
        #expect(try tree.texts("//form[@action='/_back']//code") == [h])
        #expect(try tree.texts("//footer//code") == ["jogs/" + h, h])
    }

    @Test("Attribute values read back exactly: values, options, placeholders, names, ids, token")
    func attributesRoundTrip() throws {
        let tree = try PageTree(PageRenderer.page(Self.hostileInput()))
        let h = Self.hostile
        let input = try #require(try tree.elements("//input").first { $0[attribute: "name"] == "f." + h })
        #expect(input[attribute: "value"] == h)
        #expect(input[attribute: "placeholder"] == h)
        #expect(input[attribute: "data-den-change"] == h)
        #expect(try tree.elements("//option").map { $0[attribute: "value"] } == [h, "plain"])
        #expect(try tree.texts("//option") == [h, "plain"])
        #expect(try tree.elements("//button[@name='_action']").map { $0[attribute: "value"] } == [h])
        #expect(try tree.elements("//input[@name='_csrf']").map { $0[attribute: "value"] } == [h, h])
        #expect(try tree.elements("//input[@name='_route']").map { $0[attribute: "value"] } == ["jogs/" + h, "jogs/" + h])
        // DOM ids made from the hostile field id are plain tokens.
        #expect(input[attribute: "id"]?.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } == true)
    }

    @Test("Hostile routes become paths on this server, never another site or a script")
    func routesStayHere() throws {
        let routes = ["javascript:alert(1)", "//evil.example/x", "/\\evil.example", "\\\\evil.example",
                      "https://evil.example", " javascript:alert(1)", "data:text/html,<script>alert(1)</script>"]
        let tree = try Screens.main(routes.map { .link(Link(label: "go", route: $0)) }
                                    + [.list(ItemList(items: routes.map { ItemList.Item(title: "go", route: $0) }))])
        let hrefs = try tree.elements("//a").compactMap { $0[attribute: "href"] }
        #expect(hrefs.count == routes.count * 2)
        for href in hrefs {
            #expect(href.hasPrefix("/"))
            #expect(!href.hasPrefix("//"))
            #expect(!href.contains("\\"))
            #expect(!href.contains(" ") && !href.contains("<") && !href.contains("\""))
        }
    }

    @Test("An open_url that tries to break out of its attribute stays one link")
    func openURLStaysInItsAttribute() throws {
        let url = "https://example.org/?q=\"><script>x</script>"
        let tree = try PageTree(PageRenderer.main(Screens.input([], openURLs: [url])))
        #expect(try tree.elements("//a[@rel='noopener noreferrer']").map { $0[attribute: "href"] } == [url])
        #expect(try tree.elements("//script").isEmpty)
    }

    @Test("Control and bidi characters cannot reorder or hide what the reader sees")
    func invisibleCharacters() throws {
        let tree = try Screens.main([.text("evil\u{202E}txt.exe\u{1B}[2J\u{0}end")])
        let text = try #require(try tree.texts("//p[@class='den-text']").first)
        #expect(!text.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x1B || $0.value == 0 })
        #expect(text.contains("txt.exe"))
    }

    @Test("Line breaks in module text are kept (the stylesheet shows them)")
    func lineBreaksKept() throws {
        let tree = try Screens.main([.text("one\ntwo")])
        #expect(try tree.texts("//p[@class='den-text']") == ["one\ntwo"])
    }

    @Test("Error pages escape what they are told too")
    func errorPageEscapes() throws {
        let h = Self.hostile
        let tree = try PageTree(PageRenderer.errorPage(status: 400, title: h, message: h, hint: h))
        #expect(try tree.texts("//h1") == [h])
        #expect(try tree.texts("//p[contains(@class,'den-text')]") == [h, h])
        #expect(try tree.elements("//script").isEmpty)
        #expect(try tree.elements("//img").isEmpty)
    }
}

/// The writer copies text that needs no escaping as it is and sends everything else through the
/// escapes; these check the boundary between the two, byte by byte.
@Suite("Escaping: every ASCII character, in text and in attribute values")
struct ASCIIBoundaryTests {
    /// Each printable ASCII character alone and inside plain text, then tab and line feed (kept)
    /// and the other controls (made visible as U+FFFD).
    static let samples: [(written: String, read: String)] = (0x20...0x7E).flatMap { code -> [(String, String)] in
        let character = String(UnicodeScalar(UInt8(code)))
        return [(character, character), ("a\(character)b", "a\(character)b")]
    } + [("a\tb", "a\tb"), ("a\nb", "a\nb"), ("a\u{7F}b", "a\u{FFFD}b"), ("a\u{1}b", "a\u{FFFD}b"), ("a\u{1B}b", "a\u{FFFD}b")]

    @Test("text reads back as written", arguments: samples.indices)
    func text(_ index: Int) throws {
        let (written, read) = Self.samples[index]
        let tree = try Screens.main([.text(written, style: .body)])
        #expect(try tree.texts("//p[@class='den-text']") == [read])
    }

    @Test("an input's value posts back as written (printable ASCII, tab and line feed)", arguments: samples.indices)
    func attribute(_ index: Int) throws {
        let (written, _) = Self.samples[index]
        guard written.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F || $0 == "\t" || $0 == "\n" }) else { return }
        let tree = try Screens.main([.field(Field(id: "f", label: "F", value: written))])
        let input = try #require(try tree.element("//input[@name='f.f']"))
        let value = input[attribute: "value"]
        // XML normalises a literal tab or line feed in an attribute to a space; a browser keeps it.
        #expect(value?.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ")
                == written.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " "))
    }
}

/// Text that is not ASCII: kept as written unless a character would hide or reorder what the
/// reader sees.
@Suite("Escaping: text beyond ASCII")
struct NonASCIITextTests {
    static let cases: [(written: String, read: String)] = [
        ("about · generation 1", "about · generation 1"),
        ("Grüße, Ελληνικά, Кириллица…", "Grüße, Ελληνικά, Кириллица…"),
        ("👩‍💻 joined", "👩‍💻 joined"),
        ("soft\u{AD}hyphen", "soft\u{FFFD}hyphen"),
        ("a\u{202E}b", "a\u{FFFD}b"),
        ("zero\u{200B}width", "zero\u{FFFD}width"),
        ("c1\u{85}control", "c1\u{FFFD}control"),
        ("line\u{2028}separator", "line\u{FFFD}separator"),
        ("carriage\r\nreturn", "carriage\nreturn"),
    ]

    @Test("each reads back as expected", arguments: cases.indices)
    func text(_ index: Int) throws {
        let (written, read) = Self.cases[index]
        let tree = try Screens.main([.text(written, style: .body)])
        #expect(try tree.texts("//p[@class='den-text']") == [read])
    }
}
