import DenKit

/// Navigation the presenter asks for.
protocol AboutRouterInput: AnyObject {
    func close()
    func open(website: String)
}

final class AboutRouter: AboutRouterInput, ModuleRouter {
    weak var view: (any ModuleView)?
    let navigation: Navigation

    init(navigation: Navigation) {
        self.navigation = navigation
    }

    func close() {
        navigation.back()
    }

    func open(website: String) {
        navigation.open(url: website)
    }
}
