/// The VIPER roles of a Den module. Each layer talks to the next through a protocol of the
/// module's own that refines one of these, so each layer is unit-tested against mocks.
///
/// Ownership (no cycles, so destroying an instance frees its whole stack): the View holds the
/// Presenter strongly; the Presenter holds the Interactor and the Router strongly; the
/// Interactor holds the Presenter weakly (as its output); the Router holds the View weakly.

/// Passive: turns the presenter's view objects into a `Screen` and forwards user events.
public protocol ModuleView: AnyObject {
    /// Passes a user event on to the presenter.
    func handle(_ event: ModuleEvent)
    /// Passes a field change on to the presenter (only fields with `changes` send one).
    func handleChange(_ change: FieldChange)
    /// What the view shows now.
    var screen: Screen { get }
}

public extension ModuleView {
    /// Views that ask for no change events need not implement this.
    func handleChange(_ change: FieldChange) {}
}

/// Formats data for the view; decides whether an event goes to the interactor or the router.
public protocol ModulePresenter: AnyObject {}

/// The module's logic. Calls services through protocols; knows nothing of display.
public protocol ModuleInteractor: AnyObject {}

/// Navigation only, by route string, through a `Navigation` recorder.
public protocol ModuleRouter: AnyObject {}

/// Assembles the stack for a route's parameters and injects its dependencies.
public protocol ModuleBuilder: SendableMetatype {
    static func build(_ context: BuildContext) throws -> any ModuleInstance
}
