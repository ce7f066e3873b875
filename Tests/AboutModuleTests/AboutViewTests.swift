@testable import AboutModule
import DenKit
import Testing

@Suite("About view")
struct AboutViewTests {
    let presenter = MockAboutPresenter()

    static let eventsAndCalls: [(ModuleEvent, [MockAboutPresenter.Call])] = [
        (.appear, [.viewDidAppear]),
        (.action(id: "close", fields: [:]), [.didTapClose]),
        (.action(id: "website", fields: [:]), [.didTapWebsite]),
        (.action(id: "website", fields: ["ignored": "x"]), [.didTapWebsite]),
        (.action(id: "launch-missiles", fields: [:]), []),
        (.action(id: "Close", fields: [:]), []),
    ]

    @Test("each event is forwarded as the matching presenter call; unknown actions are ignored",
          arguments: eventsAndCalls)
    func eventsReachPresenter(event: ModuleEvent, expected: [MockAboutPresenter.Call]) {
        let view = AboutView(presenter: presenter)

        view.handle(event)

        #expect(presenter.calls == expected)
    }

    @Test("a displayed view object becomes heading, version caption, description, module list and two buttons")
    func screenElements() {
        let view = AboutView(presenter: presenter)
        view.display(AboutViewObject(name: "Lair", versionLine: "Version 2.3.4", description: "A test host.",
                                     websiteTitle: "Visit the project site",
                                     modules: [.init(title: "about 1.0.0", detail: "About the app")],
                                     modulesError: nil))

        #expect(view.screen == Screen(title: "About Lair", elements: [
            .heading("Lair"),
            .text("Version 2.3.4", style: .caption),
            .text("A test host.", style: .body),
            .list(ItemList(title: "Installed modules", items: [.init(title: "about 1.0.0", detail: "About the app")],
                           emptyText: "No modules are installed.")),
            .button(Button(id: "website", label: "Visit the project site", role: .secondary)),
            .button(Button(id: "close", label: "Close", role: .primary)),
        ]))
    }

    @Test("the buttons carry the action ids the view itself understands")
    func buttonIDsRoundTrip() {
        let view = AboutView(presenter: presenter)
        let ids = view.screen.elements.compactMap { element -> String? in
            if case .button(let button) = element { button.id } else { nil }
        }
        #expect(ids == ["website", "close"])

        for id in ids { view.handle(.action(id: id, fields: [:])) }
        #expect(presenter.calls == [.didTapWebsite, .didTapClose])
    }

    @Test("a modules error shows as a warning banner just before the (empty) module list")
    func errorBanner() throws {
        let view = AboutView(presenter: presenter)
        view.display(AboutViewObject(name: "Lair", versionLine: "Version 1", description: "", websiteTitle: "Site",
                                     modules: [], modulesError: "The host could not list its modules"))

        let elements = view.screen.elements
        let bannerIndex = try #require(elements.firstIndex(of: .banner(Banner(.warning, "The host could not list its modules"))))
        let listIndex = try #require(elements.firstIndex { if case .list = $0 { true } else { false } })
        #expect(bannerIndex + 1 == listIndex)
        guard case .list(let list) = elements[listIndex] else { return }
        #expect(list.items.isEmpty)
        #expect(list.emptyText == "No modules are installed.")
    }

    @Test("before anything is displayed the screen is the loading placeholder with no banner")
    func loadingScreen() {
        let screen = AboutView(presenter: presenter).screen

        #expect(screen.title == "About About")
        #expect(screen.elements.first == .heading("About"))
        #expect(!screen.elements.contains { if case .banner = $0 { true } else { false } })
    }

    @Test("the view holds its presenter strongly")
    func presenterIsStrong() {
        weak var weakPresenter: MockAboutPresenter?
        let view: AboutView
        do {
            let transient = MockAboutPresenter()
            weakPresenter = transient
            view = AboutView(presenter: transient)
        }
        #expect(weakPresenter != nil)
        view.handle(.appear)
        #expect(weakPresenter?.calls == [.viewDidAppear])
    }
}
