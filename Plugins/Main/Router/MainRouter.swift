import DenKit

/// Where Main can go. Routes are strings: Main never imports another module.
protocol MainRouterInput: ModuleRouter {
    func showAbout()
}

/// Navigation only, recorded in the instance's `Navigation`; holds the view weakly.
final class MainRouter: MainRouterInput {
    static let aboutRoute = "about"

    weak var view: (any ModuleView)?
    private let navigation: Navigation

    init(navigation: Navigation) {
        self.navigation = navigation
    }

    func showAbout() {
        navigation.navigate(to: Self.aboutRoute)
    }
}
