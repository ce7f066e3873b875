import DenKit
import DenWebPages
import Testing

@Suite("Every Screen element has an HTML form")
struct ElementMarkupTests {
    @Test("The screen title is the page's h1; a heading is an h2")
    func headings() throws {
        let tree = try Screens.main([.heading("Your jogs")])
        #expect(try tree.texts("//h1") == ["A screen"])
        #expect(try tree.texts("//h2") == ["Your jogs"])
    }

    @Test("Text styles: body a paragraph, emphasis emphasised, caption small")
    func textStyles() throws {
        let tree = try Screens.main([
            .text("Plain", style: .body), .text("Result", style: .emphasis), .text("Source", style: .caption),
        ])
        #expect(try tree.texts("//p[@class='den-text']") == ["Plain"])
        #expect(try tree.texts("//p[contains(@class,'den-emphasis')]/em") == ["Result"])
        #expect(try tree.texts("//p[contains(@class,'den-caption')]/small") == ["Source"])
    }

    @Test("A text field: a label pointing at an input named f.<id> holding the value and placeholder")
    func textField() throws {
        let tree = try Screens.main([.field(Field(id: "name", label: "Name", value: "Ann", placeholder: "your name"))])
        let input = try #require(try tree.element("//input[@name='f.name']"))
        #expect(input[attribute: "type"] == "text")
        #expect(input[attribute: "value"] == "Ann")
        #expect(input[attribute: "placeholder"] == "your name")
        let label = try #require(try tree.element("//label"))
        #expect(label.stringValue == "Name")
        #expect(label[attribute: "for"] == input[attribute: "id"])
    }

    @Test("A number field is text with a decimal keyboard, so the module gets exactly what was typed")
    func numberField() throws {
        let tree = try Screens.main([.field(Field(id: "amount", label: "Amount", value: "12,5", kind: .number))])
        let input = try #require(try tree.element("//input[@name='f.amount']"))
        #expect(input[attribute: "type"] == "text")
        #expect(input[attribute: "inputmode"] == "decimal")
        #expect(input[attribute: "value"] == "12,5")
    }

    @Test("A date field is type=date, so a browser offers its date picker and posts YYYY-MM-DD")
    func dateField() throws {
        let tree = try Screens.main([.field(Field(id: "day", label: "Day", value: "2026-03-15", kind: .date))])
        let input = try #require(try tree.element("//input[@name='f.day']"))
        #expect(input[attribute: "type"] == "date")
        #expect(input[attribute: "value"] == "2026-03-15")
    }

    @Test("autocomplete reaches the input when it is a plain token list, and only then")
    func autocomplete() throws {
        let tree = try Screens.main([
            .field(Field(id: "user", label: "User", autocomplete: "username")),
            .field(Field(id: "pw", label: "Password", kind: .password, autocomplete: "new-password")),
            .field(Field(id: "odd", label: "Odd", autocomplete: "x\" onfocus=\"alert(1)")),
        ])
        #expect(try tree.element("//input[@name='f.user']")?[attribute: "autocomplete"] == "username")
        #expect(try tree.element("//input[@name='f.pw']")?[attribute: "autocomplete"] == "new-password")
        let odd = try #require(try tree.element("//input[@name='f.odd']"))
        #expect(odd[attribute: "autocomplete"] == nil)
        #expect(odd[attribute: "onfocus"] == nil)
    }

    @Test("A choice field is a select with the current value selected")
    func choiceField() throws {
        let tree = try Screens.main([.field(Field(id: "from", label: "From", value: "EUR", kind: .choice,
                                                  options: ["USD", "EUR", "GBP"]))])
        let select = try #require(try tree.element("//select[@name='f.from']"))
        #expect(try tree.texts("//select/option") == ["USD", "EUR", "GBP"])
        #expect(try tree.elements("//select/option").map { $0[attribute: "value"] } == ["USD", "EUR", "GBP"])
        #expect(try tree.elements("//option[@selected]").map { $0[attribute: "value"] } == ["EUR"])
        #expect(try tree.element("//label")?[attribute: "for"] == select[attribute: "id"])
    }

    @Test("A choice whose value is none of the options posts that value back, not the first option")
    func choiceWithoutMatchingValue() throws {
        let tree = try Screens.main([.field(Field(id: "to", label: "To", value: "", kind: .choice, options: ["USD", "EUR"]))])
        let selected = try tree.elements("//option[@selected]")
        #expect(selected.count == 1)
        #expect(selected.first?[attribute: "value"] == "")
        #expect(try tree.elements("//option").count == 3)
    }

    @Test("A choice with no options degrades to a text input")
    func choiceWithoutOptions() throws {
        let tree = try Screens.main([.field(Field(id: "to", label: "To", value: "EUR", kind: .choice))])
        #expect(try tree.elements("//select").isEmpty)
        #expect(try tree.element("//input[@name='f.to']")?[attribute: "value"] == "EUR")
    }

    @Test("A field's error is shown next to it and tied to it for assistive technology")
    func fieldError() throws {
        let tree = try Screens.main([.field(Field(id: "amount", label: "Amount", value: "x", kind: .number,
                                                  error: "only digits and one decimal separator"))])
        let input = try #require(try tree.element("//input[@name='f.amount']"))
        #expect(input[attribute: "aria-invalid"] == "true")
        let describedBy = try #require(input[attribute: "aria-describedby"])
        let message = try #require(try tree.element("//*[@id='\(describedBy)']"))
        #expect(message.stringValue == "only digits and one decimal separator")
    }

    @Test("A field without an error (or with an empty one) has no aria-invalid", arguments: [nil, ""])
    func fieldWithoutError(error: String?) throws {
        let tree = try Screens.main([.field(Field(id: "amount", label: "Amount", error: error))])
        #expect(try tree.elements("//p[@class='den-field-error']").isEmpty)
        #expect(try tree.element("//input[@name='f.amount']")?[attribute: "aria-invalid"] == nil)
        #expect(try tree.element("//input[@name='f.amount']")?[attribute: "aria-describedby"] == nil)
    }

    @Test("A button submits the form with its id as _action; the primary one is styled as such")
    func buttons() throws {
        let tree = try Screens.main([.button(Button(id: "save", label: "Save", role: .primary)),
                                     .button(Button(id: "delete", label: "Delete", role: .destructive))])
        let buttons = try tree.elements("//form[@action='/_action']//button")
        #expect(buttons.map { $0.stringValue } == ["Save", "Delete"])
        #expect(buttons.map { $0[attribute: "type"] } == ["submit", "submit"])
        #expect(buttons.map { $0[attribute: "name"] } == ["_action", "_action"])
        #expect(buttons.map { $0[attribute: "value"] } == ["save", "delete"])
        #expect(buttons[0][attribute: "class"]?.contains("den-primary") == true)
        #expect(buttons[1][attribute: "class"]?.contains("den-destructive") == true)
        // Side by side: one row.
        #expect(try tree.elements("//div[@class='den-actions']").count == 1)
    }

    @Test("A link goes to its route on this server")
    func link() throws {
        let tree = try Screens.main([.link(Link(label: "All jogs", route: "jogs"))])
        let link = try #require(try tree.element("//a[text()='All jogs']"))
        #expect(link[attribute: "href"] == "/jogs")
    }

    @Test("A list: its title, items with routes as links, the others as text, details beside them")
    func list() throws {
        let tree = try Screens.main([.list(ItemList(title: "Jogs", items: [
            ItemList.Item(title: "Monday", detail: "5 km", route: "jogs/1"),
            ItemList.Item(title: "Tuesday"),
        ]))])
        #expect(try tree.texts("//div[@class='den-list']/h3") == ["Jogs"])
        let items = try tree.elements("//div[@class='den-list']/ul/li")
        #expect(items.count == 2)
        let link = try #require(try tree.element("//li/a"))
        #expect(link[attribute: "href"] == "/jogs/1")
        #expect(try tree.texts("//li/a/span") == ["Monday", "5 km"])
        #expect(try tree.texts("//li[2]/span") == ["Tuesday"])
        #expect(try tree.elements("//li[2]//a").isEmpty)
    }

    @Test("An empty list shows its empty text")
    func emptyList() throws {
        let tree = try Screens.main([.list(ItemList(title: "Jogs", items: [], emptyText: "No jogs yet."))])
        #expect(try tree.texts("//p[@class='den-empty']") == ["No jogs yet."])
        #expect(try tree.elements("//ul").isEmpty)
    }

    @Test("A table has column headers with scope=col; ragged rows are padded")
    func table() throws {
        let tree = try Screens.main([.table(Table(columns: ["Date", "Distance"], rows: [["Mon", "5 km"], ["Tue"]]))])
        let headers = try tree.elements("//table/thead/tr/th")
        #expect(headers.map { $0.stringValue } == ["Date", "Distance"])
        #expect(headers.map { $0[attribute: "scope"] } == ["col", "col"])
        #expect(try tree.texts("//tbody/tr[1]/td") == ["Mon", "5 km"])
        #expect(try tree.texts("//tbody/tr[2]/td") == ["Tue", ""])
        // Narrow screens show the column name beside each cell.
        #expect(try tree.elements("//tbody/tr[1]/td").map { $0[attribute: "data-label"] } == ["Date", "Distance"])
    }

    @Test("Banners: errors and warnings are alerts, info and success are status messages", arguments: [
        (Banner.Kind.error, "alert"), (.warning, "alert"), (.info, "status"), (.success, "status"),
    ])
    func banner(kind: Banner.Kind, role: String) throws {
        let tree = try Screens.main([.banner(Banner(kind, "Saved."))])
        let banner = try #require(try tree.element("//div[contains(@class,'den-banner-\(kind.rawValue)')]"))
        #expect(banner[attribute: "role"] == role)
        #expect(try tree.texts("//span[@class='den-banner-text']") == ["Saved."])
    }

    @Test("An element this version does not know leaves a visible note, and the rest still draws")
    func unsupported() throws {
        let tree = try Screens.main([.unsupported(type: "chart"), .text("After")])
        #expect(try tree.texts("//p[@class='den-unsupported']") == ["(this screen has a 'chart' element this page cannot draw)"])
        #expect(try tree.texts("//p[@class='den-text']") == ["After"])
    }

    @Test("Host errors and notices show as banners above the screen")
    func hostMessages() throws {
        let tree = try PageTree(PageRenderer.main(Screens.input([], notices: ["Module reloaded."],
                                                               errors: ["The module 'jogs' failed."])))
        #expect(try tree.element("//div[contains(@class,'den-banner-error')]")?[attribute: "role"] == "alert")
        #expect(try tree.texts("//div[contains(@class,'den-banner-error')]/span") == ["The module 'jogs' failed."])
        #expect(try tree.texts("//div[contains(@class,'den-banner-info')]/span") == ["Module reloaded."])
    }

    @Test("A URL the module asked to open is an external link that cannot reach back to this page")
    func openURL() throws {
        let tree = try PageTree(PageRenderer.main(Screens.input([], openURLs: ["https://example.org/den"])))
        let link = try #require(try tree.element("//div[contains(@class,'den-open-urls')]//a"))
        #expect(link[attribute: "href"] == "https://example.org/den")
        #expect(link[attribute: "rel"] == "noopener noreferrer")
    }

    @Test("A URL of another scheme is shown but never made a link")
    func openURLOfAnotherScheme() throws {
        let tree = try PageTree(PageRenderer.main(Screens.input([], openURLs: ["javascript:alert(1)"])))
        #expect(try tree.elements("//div[contains(@class,'den-open-urls')]//a").isEmpty)
        #expect(tree.html.contains("javascript:alert(1)"))
    }

    @Test("Back is a small form posting to /_back, naming where it returns to")
    func back() throws {
        let tree = try Screens.page([], backRoute: "jogs")
        let form = try #require(try tree.element("//form[@action='/_back']"))
        #expect(form[attribute: "method"] == "post")
        #expect(try tree.texts("//form[@action='/_back']//code") == ["jogs"])
        #expect(try tree.elements("//form[@action='/_back']//button[@type='submit']").count == 1)
    }

    @Test("No Back control when there is nowhere to go back to")
    func noBack() throws {
        let tree = try Screens.page([], backRoute: nil)
        #expect(try tree.elements("//form[@action='/_back']").isEmpty)
    }

    @Test("The footer names the route and the module")
    func footer() throws {
        let tree = try Screens.page([])
        #expect(try tree.texts("//footer//code") == ["jogs/3", "jogs"])
    }
}
