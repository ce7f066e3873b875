import DenKit
import DenWebPages
import Testing

@Suite("Forms: what the page posts")
struct FormTests {
    static let everything: [Element] = [
        .field(Field(id: "from", label: "From", value: "USD", kind: .choice, options: ["USD", "EUR"], changes: true)),
        .field(Field(id: "amount", label: "Amount", value: "100", kind: .number, changes: true)),
        .field(Field(id: "note", label: "Note")),
        .field(Field(id: "password", label: "Password", value: "hunter2-secret", kind: .password)),
        .field(Field(id: "", label: "")),
        .button(Button(id: "convert", label: "Convert", role: .primary)),
        .link(Link(label: "Info", route: "about")),
    ]

    @Test("Every form carries the CSRF token and the route as hidden inputs")
    func csrfInEveryForm() throws {
        let tree = try Screens.page(Self.everything, backRoute: "main")
        let forms = try tree.elements("//form")
        #expect(forms.count == 2)
        for form in forms {
            let csrf = try tree.elements(".//input[@type='hidden'][@name='_csrf']", under: form)
            #expect(csrf.map { $0[attribute: "value"] } == [Screens.token])
            let route = try tree.elements(".//input[@type='hidden'][@name='_route']", under: form)
            #expect(route.map { $0[attribute: "value"] } == ["jogs/3"])
        }
    }

    @Test("One form posts every field and every button to /_action")
    func oneActionForm() throws {
        let tree = try Screens.page(Self.everything)
        let form = try #require(try tree.element("//form[@action='/_action']"))
        #expect(form[attribute: "method"] == "post")
        #expect(try tree.elements("//form[@action='/_action']//*[starts-with(@name,'f.')]").count == 5)
        #expect(try tree.elements("//*[starts-with(@name,'f.')][not(ancestor::form[@action='/_action'])]").isEmpty)
        #expect(try tree.elements("//button[@name='_action'][not(ancestor::form[@action='/_action'])]").isEmpty)
    }

    @Test("A password is never written into the page")
    func passwordNeverRendered() throws {
        let tree = try Screens.page(Self.everything)
        let input = try #require(try tree.element("//input[@name='f.password']"))
        #expect(input[attribute: "type"] == "password")
        #expect(input[attribute: "value"] == nil)
        #expect(!tree.html.contains("hunter2-secret"))
    }

    @Test("Every field has a visible label pointing at it, even one the module left unlabelled")
    func labelForEveryField() throws {
        let tree = try Screens.page(Self.everything)
        let controls = try tree.elements("//*[starts-with(@name,'f.')]")
        #expect(controls.count == 5)
        for control in controls {
            let id = try #require(control[attribute: "id"])
            let labels = try tree.elements("//label[@for='\(id)']")
            #expect(labels.count == 1, "no label for \(id)")
            #expect(labels.first?.stringValue?.isEmpty == false)
        }
        #expect(try tree.texts("//label[@for='den-field-']") == ["(unnamed field)"])
    }

    @Test("Fields that ask for change events are marked for den.js with their id; the others are not")
    func changesMarked() throws {
        let tree = try Screens.page(Self.everything)
        let marked = try tree.elements("//*[@data-den-change]")
        #expect(marked.map { $0[attribute: "data-den-change"] } == ["from", "amount"])
        #expect(marked.map { $0[attribute: "name"] } == ["f.from", "f.amount"])
    }

    @Test("Field ids become DOM ids that are unique and hold no spaces, whatever the module wrote")
    func domIDs() throws {
        let tree = try Screens.main([
            .field(Field(id: "a b", label: "One")), .field(Field(id: "a_20b", label: "Two")),
            .field(Field(id: "same", label: "Three")), .field(Field(id: "same", label: "Four")),
        ])
        let ids = try tree.elements("//*[starts-with(@name,'f.')]").compactMap { $0[attribute: "id"] }
        #expect(ids.count == 4)
        #expect(Set(ids).count == 4)
        #expect(ids.allSatisfy { !$0.contains(" ") })
        #expect(try tree.elements("//*[@name='f.a b']").count == 1)
    }

    @Test("The live-field answer is only the main element, with its form")
    func mainOnly() throws {
        let html = PageRenderer.main(Screens.input(Self.everything))
        #expect(html.hasPrefix("<main id=\"den-main\""))
        #expect(html.hasSuffix("</main>"))
        let tree = try PageTree(html)
        #expect(try tree.elements("//form[@action='/_action']").count == 1)
    }
}
