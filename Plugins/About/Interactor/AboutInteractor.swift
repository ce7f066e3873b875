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
            let plugins = try catalog.plugins(fields: [.id, .version, .summary, .generation, .loadedAt, .hosting, .publisher, .signature, .permissions, .busy])
            // One pass, with room for all: a row per installed module.
            var modules: [LoadedModule] = []
            modules.reserveCapacity(plugins.count)
            for plugin in plugins where plugin.status == .active {
                guard let id = plugin.id else { continue }
                modules.append(LoadedModule(id: id, version: plugin.version ?? "?", summary: plugin.summary ?? "",
                                            generation: plugin.generation, loadedAt: plugin.loadedAt, hosting: plugin.hosting,
                                            publisher: plugin.publisher, signature: plugin.signature,
                                            permissions: plugin.permissions?.brief, busy: plugin.busy))
            }
            modules.sort { $0.id < $1.id }
            output?.didLoad(modules: modules)
        } catch {
            output?.didFailToLoadModules("The host could not list its modules: \(error)")
        }
    }
}
