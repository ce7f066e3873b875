@testable import AboutModule
import DenKit
import Foundation
import Testing

@Suite("About module assembled by its builder")
struct AboutStackTests {
    static let catalog = StubPluginCatalog.listing([
        AboutFixtures.active("main", "0.2.0", "Currency converter"),
        AboutFixtures.failed(nil, file: "libBroken.so"),
        AboutFixtures.active("about", "1.0.0", "About the app"),
    ])

    private func makeInstance(catalog: StubPluginCatalog = AboutStackTests.catalog) -> VIPERInstance {
        let parts = AboutBuilder.assemble(catalog: catalog)
        return VIPERInstance(view: parts.view, navigation: parts.navigation)
    }

    private func moduleTitles(_ screen: Screen) -> [String]? {
        for element in screen.elements { if case .list(let list) = element { return list.items.map(\.title) } }
        return nil
    }

    @Test("appear shows the About Den screen listing the active modules and asks for no navigation")
    func appear() throws {
        let reply = try makeInstance().handle(.appear)

        #expect(reply.screen.title == "About Den")
        #expect(reply.screen.elements.prefix(2) == [.heading("Den"), .text("Version 1.0.0", style: .caption)])
        #expect(moduleTitles(reply.screen) == ["about 1.0.0", "main 0.2.0"])
        #expect(reply.effects.isEmpty)
    }

    @Test("the close action replies with a back effect")
    func close() throws {
        let instance = makeInstance()
        _ = try instance.handle(.appear)

        let reply = try instance.handle(.action(id: "close", fields: [:]))

        #expect(reply.effects == [.back])
    }

    @Test("the website action replies with open_url for the app's website, once")
    func website() throws {
        let instance = makeInstance()
        _ = try instance.handle(.appear)

        #expect(try instance.handle(.action(id: "website", fields: [:])).effects == [.openURL(AppInfo.den.website)])
        #expect(try instance.handle(.appear).effects.isEmpty, "effects are not replayed on the next event")
    }

    @Test("a failing catalog still shows the app, with a warning banner")
    func failingCatalog() throws {
        let reply = try makeInstance(catalog: .failing).handle(.appear)

        #expect(reply.screen.elements.contains { element in
            if case .banner(let banner) = element { banner.kind == .warning && banner.text.contains("could not list") } else { false }
        })
        #expect(moduleTitles(reply.screen) == [])
    }

    @Test("built for the route without a host, the screen explains that the modules cannot be listed")
    func builtWithoutHost() throws {
        let instance = try AboutBuilder.buildAbout(BuildContext(route: "about", pattern: "about", parameters: [:], query: [:],
                                                           host: .unavailable))
        let reply = try instance.handle(.appear)

        #expect(reply.screen.title == "About Den")
        #expect(reply.screen.elements.contains { element in
            if case .banner(let banner) = element { banner.text.contains("no host is attached") } else { false }
        })
    }

    @Test("the module declares id 'about' with one route 'about' built by AboutBuilder")
    func definition() throws {
        #expect(aboutModule.id == "about")
        #expect(aboutModule.version == "1.0.0")
        #expect(!aboutModule.summary.isEmpty)
        #expect(aboutModule.routes.map(\.pattern) == ["about"])
        let instance = try aboutModule.routes[0].build(BuildContext(route: "about", pattern: "about", parameters: [:],
                                                                   query: [:], host: .unavailable))
        #expect(try instance.handle(.appear).screen.title == "About Den")
    }

    @Test("the wiring follows the ownership rules: weak back-references, strong forward ones")
    func wiring() {
        let parts = AboutBuilder.assemble(catalog: AboutStackTests.catalog)

        #expect(parts.interactor.output === parts.presenter)
        #expect(parts.presenter.view === parts.view)
        #expect(parts.router.view === parts.view)
    }

    @Test("dropping every strong reference frees view, presenter, interactor and router (no retain cycles)")
    func noRetainCycles() throws {
        weak var view: AboutView?
        weak var presenter: AboutPresenter?
        weak var interactor: AboutInteractor?
        weak var router: AboutRouter?
        weak var navigation: Navigation?
        weak var instance: VIPERInstance?

        try {
            let parts = AboutBuilder.assemble(catalog: AboutStackTests.catalog)
            let live = VIPERInstance(view: parts.view, navigation: parts.navigation)
            _ = try live.handle(.appear)
            _ = try live.handle(.action(id: "website", fields: [:]))
            (view, presenter, interactor, router, navigation, instance) =
                (parts.view, parts.presenter, parts.interactor, parts.router, parts.navigation, live)
            #expect(view != nil && presenter != nil && interactor != nil && router != nil && instance != nil)
        }()

        #expect(instance == nil)
        #expect(view == nil)
        #expect(presenter == nil)
        #expect(interactor == nil)
        #expect(router == nil)
        #expect(navigation == nil)
    }
}
