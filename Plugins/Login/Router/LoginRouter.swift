import DenKit

/// Where the Login module can go. Every move replaces the current screen: the login pages are one
/// stop on the way somewhere, so Back never returns to a form that was filled in, and never
/// piles login pages on the back stack.
protocol LoginRouterInput: AnyObject {
    /// After logging in: on to `next`, or to `NextRoute.fallback` (main) without one.
    func goOn(to next: NextRoute?)
    /// Another page of the login module, carrying `next` along.
    func show(_ page: LoginPage, next: NextRoute?)
}

/// Navigation only, recorded in the instance's `Navigation`; holds the view weakly. Routes are
/// strings: Login never imports another module.
final class LoginRouter: LoginRouterInput, ModuleRouter {
    weak var view: (any ModuleView)?
    let navigation: Navigation

    init(navigation: Navigation) {
        self.navigation = navigation
    }

    func goOn(to next: NextRoute?) {
        navigation.replace(with: next?.route ?? NextRoute.fallback)
    }

    func show(_ page: LoginPage, next: NextRoute?) {
        navigation.replace(with: LoginRoutes.route(for: page, next: next))
    }
}
