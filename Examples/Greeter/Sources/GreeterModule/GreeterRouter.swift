import DenKit

/// Router: navigation by route string only; it never imports another module.
protocol GreeterRouterInput: AnyObject {
    func openAbout()
}

final class GreeterRouter: GreeterRouterInput, ModuleRouter {
    weak var view: (any ModuleView)?
    let navigation: Navigation

    init(navigation: Navigation) {
        self.navigation = navigation
    }

    func openAbout() {
        navigation.navigate(to: "about")
    }
}
