@testable import AboutModule
import DenKit
import Testing

@Suite("About presenter")
struct AboutPresenterTests {
    let interactor = MockAboutInteractor()
    let router = MockAboutRouter()
    let view = MockAboutView()
    let presenter: AboutPresenter

    init() {
        presenter = AboutPresenter(interactor: interactor, router: router)
        presenter.view = view
    }

    @Test("when the view appears it asks the interactor for the app info, then for the modules")
    func appearLoadsEverything() {
        presenter.viewDidAppear()

        #expect(interactor.calls == [.loadAppInfo, .loadModules])
        #expect(router.calls.isEmpty)
    }

    @Test("tapping close asks the router to close and loads nothing")
    func closeGoesToRouter() {
        presenter.didTapClose()

        #expect(router.calls == [.close])
        #expect(interactor.calls.isEmpty)
    }

    @Test("tapping the website opens the URL of the loaded app info")
    func websiteOpensAppInfoURL() {
        presenter.didLoad(appInfo: AboutFixtures.appInfo)
        presenter.didTapWebsite()

        #expect(router.calls == [.open(website: "https://example.org/lair")])
    }

    @Test("tapping the website before the app info is known does nothing")
    func websiteBeforeAppInfoIsIgnored() {
        presenter.didTapWebsite()

        #expect(router.calls.isEmpty)
    }

    @Test("the app info becomes display text: name, a version line, the description and a website title")
    func appInfoBecomesViewObject() throws {
        presenter.didLoad(appInfo: AboutFixtures.appInfo)

        let shown = try #require(view.displayed.last)
        #expect(view.displayed.count == 1)
        #expect(shown == AboutViewObject(name: "Lair", versionLine: "Version 2.3.4", description: "A test host.",
                                         websiteTitle: "Visit the project site", modules: [], modulesError: nil))
    }

    @Test("each loaded module becomes a row titled 'id version' with its summary as detail")
    func modulesBecomeRows() throws {
        presenter.didLoad(appInfo: AboutFixtures.appInfo)
        presenter.didLoad(modules: [LoadedModule(id: "about", version: "1.0.0", summary: "About the app"),
                                    LoadedModule(id: "main", version: "0.2.0", summary: "Currency converter")])

        let shown = try #require(view.displayed.last)
        #expect(shown.modules == [.init(title: "about 1.0.0", detail: "About the app"),
                                  .init(title: "main 0.2.0", detail: "Currency converter")])
        #expect(shown.name == "Lair", "the module list keeps the app info shown before it")
        #expect(shown.modulesError == nil)
    }

    @Test("a catalog failure empties the list and shows the message as modulesError")
    func failureBecomesModulesError() throws {
        presenter.didLoad(modules: [LoadedModule(id: "about", version: "1.0.0", summary: "")])
        presenter.didFailToLoadModules("The host could not list its modules: boom")

        let shown = try #require(view.displayed.last)
        #expect(shown.modules.isEmpty)
        #expect(shown.modulesError == "The host could not list its modules: boom")
    }

    @Test("a later successful load clears the earlier modulesError")
    func successClearsError() throws {
        presenter.didFailToLoadModules("boom")
        presenter.didLoad(modules: [LoadedModule(id: "main", version: "1.0.0", summary: "Converter")])

        let shown = try #require(view.displayed.last)
        #expect(shown.modulesError == nil)
        #expect(shown.modules.map(\.title) == ["main 1.0.0"])
    }

    @Test("the presenter holds its view weakly")
    func viewIsWeak() {
        weak var weakView: MockAboutView?
        do {
            let transient = MockAboutView()
            weakView = transient
            presenter.view = transient
            #expect(weakView != nil)
        }
        #expect(weakView == nil)
        presenter.didLoad(appInfo: AboutFixtures.appInfo) // must not crash without a view
        #expect(view.displayed.isEmpty, "the replaced view gets nothing")
    }
}

@Suite("About lists each module's hot-swap generation and load time")
struct AboutGenerationTests {
    @Test("a host that tells the generation gets it shown beside the summary")
    func generationShown() {
        let module = LoadedModule(id: "main", version: "1.0.0", summary: "Currency converter", generation: 3,
                                  loadedAt: "2026-11-23T01:02:03Z")
        #expect(AboutPresenter.detail(module) == "Currency converter · generation 3, loaded 2026-11-23 01:02:03 UTC")
        #expect(AboutPresenter.detail(LoadedModule(id: "x", version: "1", summary: "Old host")) == "Old host")
    }

    @Test("a module the host knows from its manifest and has not loaded yet says so, with no load time")
    func notLoadedYet() {
        let module = LoadedModule(id: "jogs", version: "1.0.0", summary: "Jogging log", generation: 1, loadedAt: nil)
        #expect(AboutPresenter.detail(module) == "Jogging log · generation 1, not loaded yet")
    }

    @Test("a load time reads with a space for the T and UTC for a final Z; anything else is kept as it came",
          arguments: [
              ("2026-11-23T01:02:03Z", "2026-11-23 01:02:03 UTC"),
              ("2026-11-23T01:02:03+01:00", "2026-11-23 01:02:03+01:00"),
              ("2026-11-23 01:02:03", "2026-11-23 01:02:03"),
              ("T", " "),
              ("Z", " UTC"),
              ("ZZ", "Z UTC"),
              ("", ""),
              ("Tü Z", " ü  UTC"),
          ])
    func readableTime(stamp: String, shown: String) {
        #expect(AboutPresenter.readable(stamp) == shown)
    }
}

@Suite("About lists each module's publisher and signature state")
struct AboutSignatureTests {
    @Test("a signed module names its publisher; other states are said as they are; an older host adds nothing",
          arguments: [
              ("signed", "Acme Inc", "Jogging log · generation 1, not loaded yet · signed by Acme Inc"),
              ("unsigned", nil, "Jogging log · generation 1, not loaded yet · unsigned"),
              ("unknown-key", nil, "Jogging log · generation 1, not loaded yet · signed by an unknown key"),
              (nil, nil, "Jogging log · generation 1, not loaded yet"),
          ] as [(String?, String?, String)])
    func signatureShown(signature: String?, publisher: String?, expected: String) {
        let module = LoadedModule(id: "jogs", version: "1.0.0", summary: "Jogging log", generation: 1, loadedAt: nil,
                                  publisher: publisher, signature: signature)
        #expect(AboutPresenter.detail(module) == expected)
    }
}

@Suite("About names the module that takes most of den's module time")
struct AboutBusyTests {
    @Test("the busiest module says how much of the last minute it took; the others, and older hosts, add nothing")
    func busyShown() {
        var module = LoadedModule(id: "jogs", version: "1.0.0", summary: "Jogging log", generation: 1, loadedAt: nil)
        #expect(AboutPresenter.detail(module) == "Jogging log · generation 1, not loaded yet")
        module.busy = "took 83% of den's module time over the last minute (41 s of 49 s)"
        #expect(AboutPresenter.detail(module)
                == "Jogging log · generation 1, not loaded yet · busiest: took 83% of den's module time over the last minute (41 s of 49 s)")
    }
}

@Suite("About lists what each module may use beyond its own data")
struct AboutPermissionsTests {
    @Test("a module's permissions follow its summary; one that asks for nothing says so; an older host adds nothing",
          arguments: [
              ("http(www.ecb.europa.eu)", "Currency converter · generation 1, not loaded yet · may use http(www.ecb.europa.eu)"),
              ("http(127.0.0.1) exports(exporter.*) auth plugins",
               "Currency converter · generation 1, not loaded yet · may use http(127.0.0.1) exports(exporter.*) auth plugins"),
              ("-", "Currency converter · generation 1, not loaded yet · may use nothing beyond its own data"),
              (nil, "Currency converter · generation 1, not loaded yet"),
          ] as [(String?, String)])
    func permissionsShown(permissions: String?, expected: String) {
        let module = LoadedModule(id: "main", version: "1.0.0", summary: "Currency converter", generation: 1, loadedAt: nil,
                                  permissions: permissions)
        #expect(AboutPresenter.detail(module) == expected)
    }

    @Test("the screen's row for a module carries its permissions, before its signature")
    func rowCarriesPermissions() throws {
        let view = MockAboutView()
        let presenter = AboutPresenter(interactor: MockAboutInteractor(), router: MockAboutRouter())
        presenter.view = view
        presenter.didLoad(modules: [LoadedModule(id: "about", version: "1.0.0", summary: "About the app", signature: "unsigned",
                                                 permissions: "plugins")])

        let shown = try #require(view.displayed.last)
        #expect(shown.modules == [.init(title: "about 1.0.0", detail: "About the app · may use plugins · unsigned")])
    }
}
