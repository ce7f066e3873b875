import DenKit

/// What the view tells the presenter. Each call ends with the presenter displaying a
/// `MainViewObject` in the view (`MainViewInput`).
protocol MainPresenterInput: AnyObject {
    func viewDidAppear()
    func didTrigger(_ action: MainAction, form: MainFormInput)
    /// A field changed (the fields ask for change events): recompute as the user types.
    func didChange(form: MainFormInput)
}

/// The user's actions (button ids on the screen).
enum MainAction: Equatable, Sendable {
    /// Recompute from the submitted fields.
    case convert
    /// Swap the two currencies (after applying the submitted fields).
    case swap
    /// Fetch the configured rates URL, falling back to offline rates.
    case reload
    /// Open the About screen.
    case info
    case unknown(String)

    init(id: String) {
        switch id {
        case MainViewObject.ActionID.convert: self = .convert
        case MainViewObject.ActionID.swap: self = .swap
        case MainViewObject.ActionID.reload: self = .reload
        case MainViewObject.ActionID.info: self = .info
        default: self = .unknown(id)
        }
    }
}

/// The submitted form values (nil when a field was not sent).
struct MainFormInput: Equatable, Sendable {
    var from: String?
    var to: String?
    var amount: String?

    init(from: String? = nil, to: String? = nil, amount: String? = nil) {
        self.from = from
        self.to = to
        self.amount = amount
    }
}
