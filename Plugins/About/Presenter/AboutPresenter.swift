import DenKit

/// What the view tells the presenter.
protocol AboutPresenterInput: AnyObject {
    func viewDidAppear()
    func didTapClose()
    func didTapWebsite()
}

/// Turns the app info and the module list into an `AboutViewObject` and pushes it into the view
/// whenever either arrives; Close and the website link go to the router.
final class AboutPresenter: AboutPresenterInput, AboutInteractorOutput, ModulePresenter {
    weak var view: (any AboutViewInput)?
    private let interactor: any AboutInteractorInput
    private let router: any AboutRouterInput
    private var viewObject = AboutViewObject.loading
    private var website: String?

    init(interactor: any AboutInteractorInput, router: any AboutRouterInput) {
        self.interactor = interactor
        self.router = router
    }

    func viewDidAppear() {
        interactor.loadAppInfo()
        interactor.loadModules()
    }

    func didTapClose() {
        router.close()
    }

    func didTapWebsite() {
        guard let website else { return }
        router.open(website: website)
    }

    func didLoad(appInfo: AppInfo) {
        website = appInfo.website
        viewObject.name = appInfo.name
        viewObject.versionLine = "Version \(appInfo.version)"
        viewObject.description = appInfo.description
        viewObject.websiteTitle = "Visit the project site"
        view?.display(viewObject)
    }

    func didLoad(modules: [LoadedModule]) {
        viewObject.modules = modules.map { .init(title: Self.title($0), detail: Self.detail($0)) }
        viewObject.modulesError = nil
        view?.display(viewObject)
    }

    /// "about 1.0.0": the id and the version (appended, not interpolated: a row per module).
    static func title(_ module: LoadedModule) -> String {
        var text = module.id
        text += " "
        text += module.version
        return text
    }

    /// The summary, then (from hosts that tell) the generation and when it was loaded:
    /// "… · generation 2, loaded 2026-11-23 01:02:03 UTC", or "… · generation 1, not loaded yet"
    /// for a module the host knows from its manifest and loads when one of its routes is opened;
    /// then, for an isolated module, " · isolated, pid 4242, 0 restarts, sandbox: …".
    static func detail(_ module: LoadedModule) -> String {
        generationDetail(module) + permissionsDetail(module) + signatureDetail(module) + busyDetail(module)
    }

    /// " · busiest: took 83% of den's module time over the last minute (41 s of 49 s)".
    static func busyDetail(_ module: LoadedModule) -> String {
        module.busy.map { " · busiest: " + $0 } ?? ""
    }

    /// " · may use http(www.ecb.europa.eu)", " · may use nothing beyond its own data" (docs/PERMISSIONS.md).
    static func permissionsDetail(_ module: LoadedModule) -> String {
        guard let permissions = module.permissions else { return "" }
        return permissions == "-" ? " · may use nothing beyond its own data" : " · may use " + permissions
    }

    /// " · signed by Acme Inc", " · unsigned", … from hosts that check signatures (docs/SIGNING.md).
    static func signatureDetail(_ module: LoadedModule) -> String {
        if let publisher = module.publisher { return " · signed by " + publisher }
        guard let signature = module.signature else { return "" }
        return " · " + (signature == "unknown-key" ? "signed by an unknown key" : signature)
    }

    private static func generationDetail(_ module: LoadedModule) -> String {
        guard let generation = module.generation else { return module.summary }
        // Written into one string sized up front (a row per installed module): interpolation
        // grew the string, a copy each time.
        let loadedAt = module.loadedAt.map(readable)
        let number = String(generation)
        var text = ""
        text.reserveCapacity(module.summary.utf8.count + 15 + number.utf8.count + 16 + (loadedAt?.utf8.count ?? 0))
        text += module.summary
        text += " · generation "
        text += number
        if let loadedAt {
            text += ", loaded "
            text += loadedAt
        } else {
            text += ", not loaded yet"
        }
        // In-process is the default and goes unsaid; an isolated module shows its worker.
        if let hosting = module.hosting, hosting != "in-process" {
            text += " · "
            text += hosting
        }
        return text
    }

    /// `2026-11-23T01:02:03Z` → `2026-11-23 01:02:03 UTC`.
    static func readable(_ timestamp: String) -> String {
        // Byte for byte: the build stamp is ASCII, and String(Character sequence) is generic code
        // the runtime would first have to instantiate in a fresh process.
        var bytes = Array(timestamp.utf8)
        for index in bytes.indices where bytes[index] == UInt8(ascii: "T") { bytes[index] = UInt8(ascii: " ") }
        let zulu = bytes.last == UInt8(ascii: "Z")
        if zulu { bytes.removeLast() }
        let spaced = String(decoding: bytes, as: UTF8.self)
        return zulu ? spaced + " UTC" : spaced
    }

    func didFailToLoadModules(_ message: String) {
        viewObject.modules = []
        viewObject.modulesError = message
        view?.display(viewObject)
    }
}
