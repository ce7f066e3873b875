import DenKit
import DenWebPages
import Testing

/// The header every page draws around its screen: the app's name, the modules' navigation
/// entries, the account, and the Menu toggle that folds them at phone widths.
@Suite("App bar markup")
struct AppBarMarkupTests {
    static func page(_ bar: AppBar, backTitle: String? = nil, backRoute: String? = nil) throws -> PageTree {
        var input = Screens.input([], backRoute: backRoute)
        input.appBar = bar
        input.backTitle = backTitle
        return try PageTree(PageRenderer.page(input))
    }

    static let bar = AppBar(appName: "Jog <Club>", items: [
        AppBar.Item(title: "Converter", route: "main"),
        AppBar.Item(title: "Jogs", route: "jogs", needsLogin: true, isCurrent: true),
    ], loginRoute: "login")

    @Test("the name links home and titles the page; entries are links in order, the current one marked")
    func entries() throws {
        let tree = try Self.page(Self.bar)
        #expect(try tree.texts("//header//a[@class='den-home']") == ["Jog <Club>"])
        #expect(try tree.texts("//title").first?.hasSuffix("· Jog <Club>") == true)
        let links = try tree.elements("//nav[@id='den-nav']//ul//a")
        #expect(links.map { $0[attribute: "href"] } == ["/main", "/jogs"])
        #expect(links.map { $0[attribute: "aria-current"] } == [nil, "page"])
        #expect(try tree.texts("//nav//span[@class='den-nav-login']") == [" (log in)"])
        #expect(try tree.texts("//nav//div[@class='den-account']/a") == ["Log in"])
        // The Menu toggle: a checkbox and its label, no script.
        let toggle = try #require(try tree.element("//input[@id='den-menu-toggle']"))
        #expect(toggle[attribute: "type"] == "checkbox")
        #expect(try tree.texts("//label[@for='den-menu-toggle']") == ["Menu"])
    }

    @Test("logged in: the user's name, Change password, and Log out as a POST with the page's token")
    func account() throws {
        let tree = try Self.page(AppBar(appName: "Den", items: [], user: "alice", passwordRoute: "login/password"))
        #expect(try tree.texts("//span[@class='den-user']").first?.contains("alice") == true)
        #expect(try tree.element("//nav//a[.='Change password']")?[attribute: "href"] == "/login/password")
        let form = try #require(try tree.element("//form[@action='/_logout']"))
        #expect(form[attribute: "method"] == "post")
        #expect(try tree.elements("//form[@action='/_logout']//input[@name='_csrf']").map { $0[attribute: "value"] } == [Screens.token])
        #expect(try tree.texts("//form[@action='/_logout']//button") == ["Log out"])
        #expect(try tree.elements("//nav//a[.='Log in']").isEmpty)
    }

    @Test("with nothing to show, the header is the name alone; error pages too")
    func plain() throws {
        let tree = try Self.page(.plain)
        #expect(try tree.elements("//nav").isEmpty)
        #expect(try tree.elements("//input[@id='den-menu-toggle']").isEmpty)
        let error = try PageTree(PageRenderer.errorPage(status: 404, title: "Not found", message: "m", hint: nil))
        #expect(try error.texts("//header//a") == ["Den"])
        #expect(try error.elements("//nav").isEmpty)
    }

    @Test("Back names the screen below by its title; by its route only when it has none")
    func backByTitle() throws {
        let titled = try Self.page(.plain, backTitle: "Currency converter", backRoute: "main")
        #expect(try titled.texts("//span[@class='den-back-to']") == ["to Currency converter"])
        #expect(try titled.elements("//form[@action='/_back']//code").isEmpty)
        let untitled = try Self.page(.plain, backTitle: "", backRoute: "main")
        #expect(try untitled.texts("//form[@action='/_back']//code") == ["main"])
    }
}
