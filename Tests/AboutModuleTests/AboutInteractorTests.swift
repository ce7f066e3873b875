@testable import AboutModule
import DenKit
import Testing

@Suite("About interactor")
struct AboutInteractorTests {
    let output = MockAboutInteractorOutput()

    private func makeInteractor(_ catalog: StubPluginCatalog, appInfo: AppInfo = AboutFixtures.appInfo) -> AboutInteractor {
        let interactor = AboutInteractor(appInfo: appInfo, catalog: catalog)
        interactor.output = output
        return interactor
    }

    @Test("loading the app info hands the injected AppInfo to the output")
    func appInfo() {
        makeInteractor(.listing([])).loadAppInfo()

        #expect(output.calls == [.appInfo(AboutFixtures.appInfo)])
    }

    @Test("only active modules are listed, sorted by id; failed plugins are left out")
    func activeModulesSorted() {
        let catalog = StubPluginCatalog.listing([
            AboutFixtures.active("main", "0.2.0", "Currency converter"),
            AboutFixtures.failed(nil, file: "libBroken.so"),
            AboutFixtures.active("about", "1.0.0", "About the app"),
            AboutFixtures.failed("jogs", file: "libJogsModule.so"),
            AboutFixtures.active("login", "3.1.4", "Sign in"),
        ])

        makeInteractor(catalog).loadModules()

        #expect(output.calls == [.modules([
            LoadedModule(id: "about", version: "1.0.0", summary: "About the app"),
            LoadedModule(id: "login", version: "3.1.4", summary: "Sign in"),
            LoadedModule(id: "main", version: "0.2.0", summary: "Currency converter"),
        ])])
    }

    @Test("an active module without a version or summary is listed with '?' and an empty summary")
    func missingVersionAndSummary() {
        let bare = PluginSummary(id: "bare", version: nil, summary: nil, file: "libBare.so", routes: [], status: .active)

        makeInteractor(.listing([bare])).loadModules()

        #expect(output.calls == [.modules([LoadedModule(id: "bare", version: "?", summary: "")])])
    }

    @Test("each module's permissions reach the screen in brief: what it asks for, '-' for nothing, none from a host that does not tell")
    func permissionsInBrief() {
        var asking = AboutFixtures.active("main", "1.0.0", "Currency converter")
        asking.permissions = ModulePermissions(http: ["www.ecb.europa.eu"], exports: ["jogs.*"], auth: true, plugins: true)
        var modest = AboutFixtures.active("jogs", "1.0.0", "Jogging log")
        modest.permissions = .nothing
        let older = AboutFixtures.active("login", "1.0.0", "Sign in") // an older host, or no manifest

        makeInteractor(.listing([asking, modest, older])).loadModules()

        #expect(output.calls == [.modules([
            LoadedModule(id: "jogs", version: "1.0.0", summary: "Jogging log", permissions: "-"),
            LoadedModule(id: "login", version: "1.0.0", summary: "Sign in"),
            LoadedModule(id: "main", version: "1.0.0", summary: "Currency converter",
                         permissions: "http(www.ecb.europa.eu) exports(jogs.*) auth plugins"),
        ])])
    }

    @Test("no plugins at all gives an empty module list, not an error")
    func emptyCatalog() {
        makeInteractor(.listing([])).loadModules()

        #expect(output.calls == [.modules([])])
    }

    @Test("a throwing catalog tells the output why, in a sentence that includes the error")
    func throwingCatalog() throws {
        makeInteractor(.failing).loadModules()

        #expect(output.calls.count == 1)
        guard case .failure(let message) = try #require(output.calls.first) else {
            Issue.record("expected a failure message, got \(output.calls)")
            return
        }
        #expect(message.hasPrefix("The host could not list its modules"))
        #expect(message.contains("plugins.list: the registry is locked"))
    }

    @Test("the interactor holds its output weakly")
    func outputIsWeak() {
        let interactor = AboutInteractor(appInfo: AboutFixtures.appInfo, catalog: StubPluginCatalog.listing([]))
        weak var weakOutput: MockAboutInteractorOutput?
        do {
            let transient = MockAboutInteractorOutput()
            weakOutput = transient
            interactor.output = transient
            #expect(interactor.output != nil)
        }
        #expect(weakOutput == nil)
        #expect(interactor.output == nil)
        interactor.loadModules() // talking to nobody must not crash
    }
}
