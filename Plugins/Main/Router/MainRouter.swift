import DenKit

/// Where Main can go. Routes are strings: Main never imports another module.
protocol MainRouterInput: AnyObject {
    func showAbout()
}

/// Navigation only, recorded in the instance's `Navigation`; holds the view weakly.
final class MainRouter: MainRouterInput, ModuleRouter {
    static let aboutRoute = "about"

    weak var view: (any ModuleView)?
    let navigation: Navigation

    init(navigation: Navigation) {
        self.navigation = navigation
    }

    func showAbout() {
        navigation.navigate(to: Self.aboutRoute)
    }
}
