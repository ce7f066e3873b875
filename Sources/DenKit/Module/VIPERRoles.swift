/// The VIPER roles of a Den module, in Den's one dialect: **the presenter pushes**.
///
///     host ──event──▶ View ──forwards──▶ Presenter ──asks──▶ Interactor ──services──▶ …
///                      ▲                  │    │                  │
///                      └──display(vo)─────┘    └──▶ Router        └──output (weak)──▶ Presenter
///                                                    └──▶ Navigation (route strings)
///
/// - The **view** is passive: it forwards each user event to its presenter, keeps the view
///   object the presenter displayed last, and turns that one into a `Screen`
///   (`PassiveModuleView`). It never asks the presenter for anything.
/// - The **presenter** formats data into view objects and pushes them into the view
///   (`ModuleViewInput.display`) at the end of every input that changes what is shown, so the
///   view always holds the latest. It sends each event to the interactor (logic, data) or the
///   router (navigation).
/// - The **interactor** is the module's logic; it calls services through protocols and reports to
///   its presenter through its output protocol, or answers by return value (`Output == Never`).
/// - The **router** navigates by route string through the instance's `Navigation`, never by
///   importing another module.
/// - The **builder** (`ModuleBuilder`) assembles the stack and injects dependencies.
///
/// Each layer talks to the next through a protocol of the module's own (`AboutPresenterInput`,
/// `AboutInteractorOutput`, …), so each is unit-tested against mocks; the roles below are what
/// the concrete classes conform to, so the compiler checks a module follows the dialect.
///
/// Ownership (no cycles, so destroying an instance frees its whole stack): the View holds the
/// Presenter strongly; the Presenter holds the Interactor and the Router strongly; the
/// Interactor holds the Presenter weakly (as its output); the Presenter holds the View weakly;
/// the Router holds the View weakly. Protocols cannot say `weak`: declare those properties
/// `weak var`, and test that a destroyed instance frees its stack.

/// What the host sees of a module's view: it passes events in and reads the screen out.
/// `VIPERInstance` talks to this; a view written in Den's dialect is a `PassiveModuleView`.
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

/// What a presenter pushes into its view: the module's view-input protocol refines this
/// (`protocol AboutViewInput: ModuleViewInput<AboutViewObject>`), and may add other pushes
/// (Login's `displayLoginError`). Presenter tests give the presenter a mock of it and read what
/// was displayed.
public protocol ModuleViewInput<ViewObject>: AnyObject {
    /// Display-ready data made by the presenter: strings and flags, never entities.
    associatedtype ViewObject
    /// Replaces what the view shows. The view keeps it until the next push and draws it on demand.
    func display(_ viewObject: ViewObject)
}

/// A view in Den's dialect: passive, it holds its presenter (strongly), forwards events to it,
/// keeps the last view object displayed and draws only that. `screen` comes for free.
public protocol PassiveModuleView<ViewObject>: ModuleView, ModuleViewInput {
    /// The module's presenter-input protocol, as the view holds it (`any AboutPresenterInput`).
    associatedtype Presenter
    /// Held strongly: the view owns the rest of the stack.
    var presenter: Presenter { get }
    /// The view object displayed last; a placeholder (e.g. `.loading`) until the first push.
    var viewObject: ViewObject { get }
    /// Draws a view object. The one place a module decides how its data looks as elements.
    static func screen(for viewObject: ViewObject) -> Screen
}

public extension PassiveModuleView {
    /// The last view object displayed, drawn.
    var screen: Screen { Self.screen(for: viewObject) }
}

/// Formats data for the view and pushes it there; decides whether an event goes to the
/// interactor or the router. Knows no rendering technology (no `Screen`, no `Element`).
public protocol ModulePresenter: AnyObject {
    /// The module's view-input protocol as the presenter holds it: `any AboutViewInput`, where
    /// `AboutViewInput` refines `ModuleViewInput`.
    associatedtype View
    /// The view it pushes view objects into. Declare it `weak var`: the view holds the presenter.
    var view: View? { get set }
    /// The screen was shown: opened, or returned to (the host's `appear`). It ends with a push
    /// into the view (directly, or through the interactor's output), so the first screen is the
    /// presenter's.
    func viewDidAppear()
}

/// The module's logic. Calls services through protocols; knows nothing of display.
public protocol ModuleInteractor: AnyObject {
    /// The module's interactor-output protocol as the interactor holds it
    /// (`any AboutInteractorOutput`), implemented by the presenter. `Never` (the default) for an
    /// interactor that answers every call by its return value and so has no output.
    associatedtype Output = Never
    /// The presenter it reports to. Declare it `weak var`: the presenter holds the interactor.
    var output: Output? { get set }
}

public extension ModuleInteractor where Output == Never {
    /// An interactor that answers by return values has no one to report to.
    var output: Never? {
        get { nil }
        set {}
    }
}

/// Navigation only, by route string, recorded in the instance's `Navigation`.
public protocol ModuleRouter: AnyObject {
    /// The instance's recorder of navigation effects (`VIPERInstance` drains it after each event).
    var navigation: Navigation { get }
    /// The view, held weakly (`weak var`): the view owns the presenter, which owns the router.
    var view: (any ModuleView)? { get set }
}

/// Assembles the stack for a route's parameters and injects its dependencies.
public protocol ModuleBuilder: SendableMetatype {
    static func build(_ context: BuildContext) throws -> any ModuleInstance
}
