import DenKit

/// Where Jogs goes after an action. Routes are strings; plain navigation (New jog, Weekly
/// report, a jog in the list, Log in) is a link on the screen, which the host follows itself.
protocol JogsRouterInput: AnyObject {
    /// After a new jog is saved: its detail screen takes the place of the form, so Back leads
    /// to where the user was before the form.
    func showSavedJog(id: Int)
    /// After a jog is deleted: to the list (the host returns to it when it is below, and it
    /// reloads as it appears), never to whatever screen happened to be below.
    func closeDeletedJog()
}

/// Navigation only, recorded in the instance's `Navigation`; holds the view weakly.
final class JogsRouter: JogsRouterInput, ModuleRouter {
    weak var view: (any ModuleView)?
    let navigation: Navigation

    init(navigation: Navigation) {
        self.navigation = navigation
    }

    func showSavedJog(id: Int) {
        navigation.replace(with: JogsRoutes.jog(id))
    }

    func closeDeletedJog() {
        navigation.replace(with: JogsRoutes.list)
    }
}
