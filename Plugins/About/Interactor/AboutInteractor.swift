import DenKit

/// What the presenter asks of the interactor.
protocol AboutInteractorInput: AnyObject {
    func loadAppInfo()
    func loadModules()
}

/// What the interactor tells the presenter.
protocol AboutInteractorOutput: AnyObject {
    func didLoad(appInfo: AppInfo)
    func didLoad(modules: [LoadedModule])
    func didFailToLoadModules(_ message: String)
}

final class AboutInteractor: AboutInteractorInput, ModuleInteractor {
    weak var output: (any AboutInteractorOutput)?
    private let appInfo: AppInfo
    private let catalog: any PluginCatalog

    init(appInfo: AppInfo, catalog: any PluginCatalog) {
        self.appInfo = appInfo
        self.catalog = catalog
    }

    func loadAppInfo() {
        output?.didLoad(appInfo: appInfo)
    }

    func loadModules() {
        do {
            let modules = try catalog.plugins(fields: [.id, .version, .summary, .generation, .loadedAt])
                .filter { $0.status == .active }
                .compactMap { plugin in
                    plugin.id.map { LoadedModule(id: $0, version: plugin.version ?? "?", summary: plugin.summary ?? "",
                                                 generation: plugin.generation, loadedAt: plugin.loadedAt) }
                }
            output?.didLoad(modules: modules.sorted { $0.id < $1.id })
        } catch {
            output?.didFailToLoadModules("The host could not list its modules: \(error)")
        }
    }
}
