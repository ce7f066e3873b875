import DenKit

/// What the view tells a Jogs presenter. Each route has its own presenter (list, new jog,
/// detail, report) behind this one protocol, so one view draws them all: every presenter ends
/// each call below by displaying a `JogsScreenViewObject` in its `view` (`JogsViewInput`).
/// The builder picks the presenter for the route, so the protocol also carries the presenter's
/// weak `view` (`ModulePresenter`).
protocol JogsPresenterInput: ModulePresenter where View == any JogsViewInput {
    /// Shown, or shown again after another screen: reload, since data may have changed.
    func viewDidAppear()
    func didTrigger(_ action: JogsAction, form: JogsFormInput)
    /// A field changed (the fields ask for change events): keep what is typed.
    func didChange(field: String, form: JogsFormInput)
    /// What the user has typed and where they are, for a hot swap (`JogsStateCodec`).
    var state: JogsScreenState { get }
    /// Applies a state saved by `state` (possibly by an older version); throws without changing
    /// anything when it belongs to another screen.
    func restore(_ state: JogsScreenState) throws
}

/// The user's actions (button ids on the screens).
enum JogsAction: Equatable, Sendable {
    case save
    case delete
    case confirmDelete
    case cancelDelete
    case filter
    case clearFilter
    case unknown(String)

    init(id: String) {
        typealias ID = JogsScreenViewObject.ActionID
        switch id {
        case ID.save: self = .save
        case ID.delete: self = .delete
        case ID.confirmDelete: self = .confirmDelete
        case ID.cancelDelete: self = .cancelDelete
        case ID.filter: self = .filter
        case ID.clearFilter: self = .clearFilter
        default: self = .unknown(id)
        }
    }

    /// The button id this action comes from.
    var id: String {
        typealias ID = JogsScreenViewObject.ActionID
        switch self {
        case .save: return ID.save
        case .delete: return ID.delete
        case .confirmDelete: return ID.confirmDelete
        case .cancelDelete: return ID.cancelDelete
        case .filter: return ID.filter
        case .clearFilter: return ID.clearFilter
        case .unknown(let id): return id
        }
    }
}

/// The submitted field values (nil when a field was not sent).
struct JogsFormInput: Equatable, Sendable {
    var date: String?
    var distance: String?
    var duration: String?
    var from: String?
    var to: String?

    init(date: String? = nil, distance: String? = nil, duration: String? = nil, from: String? = nil, to: String? = nil) {
        self.date = date
        self.distance = distance
        self.duration = duration
        self.from = from
        self.to = to
    }

    init(_ fields: [String: String]) {
        typealias ID = JogsScreenViewObject.FieldID
        self.init(date: fields[ID.date], distance: fields[ID.distance], duration: fields[ID.duration],
                  from: fields[ID.from], to: fields[ID.to])
    }

    /// `draft` with every field this input carries.
    func applied(to draft: JogDraft) -> JogDraft {
        JogDraft(date: date ?? draft.date, distance: distance ?? draft.distance, duration: duration ?? draft.duration)
    }
}

/// A screen's typed state: which screen, its field texts, and whether a delete awaits
/// confirmation. Never data from storage: a restored screen reads that afresh.
struct JogsScreenState: Codable, Equatable, Sendable {
    enum Screen: String, Codable, Sendable { case list, new, detail, report }

    var screen: Screen
    /// Field texts by field id (`JogsScreenViewObject.FieldID`).
    var fields: [String: String]
    var confirmingDelete: Bool

    init(screen: Screen, fields: [String: String] = [:], confirmingDelete: Bool = false) {
        self.screen = screen
        self.fields = fields
        self.confirmingDelete = confirmingDelete
    }

    /// A form's texts as state fields.
    static func fields(of draft: JogDraft) -> [String: String] {
        typealias ID = JogsScreenViewObject.FieldID
        return [ID.date: draft.date, ID.distance: draft.distance, ID.duration: draft.duration]
    }

    /// `draft` with the texts found in state `fields`.
    static func draft(from fields: [String: String], over draft: JogDraft) -> JogDraft {
        typealias ID = JogsScreenViewObject.FieldID
        return JogDraft(date: fields[ID.date] ?? draft.date, distance: fields[ID.distance] ?? draft.distance,
                        duration: fields[ID.duration] ?? draft.duration)
    }

    /// Refuses a state saved by another screen (the host restores into the same route, so this
    /// only happens with a damaged or foreign snapshot).
    static func expect(_ state: JogsScreenState, is screen: Screen) throws {
        guard state.screen == screen else {
            throw ModuleError.invalidParameter("the saved Jogs state is for the \(state.screen.rawValue) screen, not the \(screen.rawValue) screen")
        }
    }
}
