@testable import AboutModule
import DenKit
import Foundation

/// Records what the presenter asks of the interactor.
final class MockAboutInteractor: AboutInteractorInput {
    enum Call: Equatable { case loadAppInfo, loadModules }
    private(set) var calls: [Call] = []

    func loadAppInfo() { calls.append(.loadAppInfo) }
    func loadModules() { calls.append(.loadModules) }
}

/// Records the navigation the presenter asks for.
final class MockAboutRouter: AboutRouterInput {
    enum Call: Equatable { case close, open(website: String) }
    private(set) var calls: [Call] = []

    func close() { calls.append(.close) }
    func open(website: String) { calls.append(.open(website: website)) }
}

/// Records every view object the presenter displays.
final class MockAboutView: AboutViewInput {
    private(set) var displayed: [AboutViewObject] = []

    func display(_ viewObject: AboutViewObject) { displayed.append(viewObject) }
}

/// Records what the view forwards to the presenter.
final class MockAboutPresenter: AboutPresenterInput {
    enum Call: Equatable { case viewDidAppear, didTapClose, didTapWebsite }
    private(set) var calls: [Call] = []

    func viewDidAppear() { calls.append(.viewDidAppear) }
    func didTapClose() { calls.append(.didTapClose) }
    func didTapWebsite() { calls.append(.didTapWebsite) }
}

/// Records what the interactor tells its output.
final class MockAboutInteractorOutput: AboutInteractorOutput {
    enum Call: Equatable {
        case appInfo(AppInfo)
        case modules([LoadedModule])
        case failure(String)
    }
    private(set) var calls: [Call] = []

    func didLoad(appInfo: AppInfo) { calls.append(.appInfo(appInfo)) }
    func didLoad(modules: [LoadedModule]) { calls.append(.modules(modules)) }
    func didFailToLoadModules(_ message: String) { calls.append(.failure(message)) }
}

struct CatalogUnavailable: Error, CustomStringConvertible {
    var description: String { "plugins.list: the registry is locked" }
}

/// A `PluginCatalog` answering with a fixed list, or failing. Asked for some fields, it blanks
/// the others as a revision-3 host leaves them out, so About's tests hold it to what it asks for.
struct StubPluginCatalog: PluginCatalog {
    var result: Result<[PluginSummary], CatalogUnavailable>

    static func listing(_ plugins: [PluginSummary]) -> StubPluginCatalog { StubPluginCatalog(result: .success(plugins)) }
    static let failing = StubPluginCatalog(result: .failure(CatalogUnavailable()))

    func plugins() throws -> [PluginSummary] { try result.get() }

    func plugins(fields: [PluginSummary.Field]) throws -> [PluginSummary] {
        try result.get().map { $0.keeping(PluginSummary.Fields(fields)) }
    }
}

enum AboutFixtures {
    static let appInfo = AppInfo(name: "Lair", version: "2.3.4", description: "A test host.",
                                 website: "https://example.org/lair")

    static func active(_ id: String, _ version: String = "1.0.0", _ summary: String = "") -> PluginSummary {
        PluginSummary(id: id, version: version, summary: summary.isEmpty ? "The \(id) module" : summary,
                      file: "lib\(id.capitalized)Module.so", routes: [id], status: .active)
    }

    static func failed(_ id: String?, file: String) -> PluginSummary {
        PluginSummary(id: id, version: nil, summary: nil, file: file, routes: [], status: .failed,
                      error: "\(file): missing symbol den_module_entry")
    }
}
