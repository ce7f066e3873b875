import DenKit

/// Navigation the presenter asks for.
protocol SwiftFaultsRouterInput: AnyObject {
    func back()
}

final class SwiftFaultsRouter: SwiftFaultsRouterInput, ModuleRouter {
    weak var view: (any ModuleView)?
    let navigation: Navigation

    init(navigation: Navigation) {
        self.navigation = navigation
    }

    func back() {
        navigation.back()
    }
}
