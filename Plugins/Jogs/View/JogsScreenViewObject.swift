/// Everything one Jogs screen shows, already formatted by its presenter: strings only.
enum JogsScreenViewObject: Equatable, Sendable {
    /// `jogs`: the date filter, the jogs, the totals.
    case list(List)
    /// `jogs/new`, and `jogs/<id>` while showing or editing a jog.
    case form(Form)
    /// `jogs/<id>` after Delete: the confirmation step.
    case confirmation(Confirmation)
    /// `jogs/report`: a row per ISO week.
    case report(Report)
    /// Instead of data: "Log in first", "Jog not found", "Deleted", a storage failure.
    case message(Message)

    /// The ids of the fields (also the keys of an action's `fields`).
    enum FieldID {
        static let date = "date"
        static let distance = "distance"
        static let duration = "duration"
        static let from = "from"
        static let to = "to"
    }

    /// The ids of the buttons.
    enum ActionID {
        static let save = "save"
        static let delete = "delete"
        static let confirmDelete = "confirm-delete"
        static let cancelDelete = "cancel-delete"
        static let filter = "filter"
        static let clearFilter = "clear-filter"
    }

    struct Notice: Equatable, Sendable {
        enum Kind: Equatable, Sendable { case info, success, warning, error }
        var kind: Kind
        var text: String
    }

    struct Field: Equatable, Sendable {
        var id: String
        var label: String
        var text: String
        var placeholder: String
        /// Why the last value was refused, and what to type.
        var error: String?
    }

    struct Action: Equatable, Sendable {
        enum Role: Equatable, Sendable { case primary, secondary, destructive }
        var id: String
        var label: String
        var role: Role
    }

    struct Link: Equatable, Sendable {
        var label: String
        var route: String
    }

    struct List: Equatable, Sendable {
        var title: String
        var notices: [Notice]
        var from: Field
        var to: Field
        var actions: [Action]
        /// Newest first.
        var jogs: [JogViewObject]
        /// Shown when `jogs` is empty.
        var emptyText: String
        /// "3 jogs · 15.75 km · 1:25:30 · average pace 5:26 min/km" over the whole filter, not
        /// only this page; nil without jogs.
        var totals: String?
        var links: [Link]
        /// Which jogs this page shows ("Jogs 51–100 of 20000 · page 2 of 400"); nil on a single page.
        var paging: String? = nil
    }

    struct Form: Equatable, Sendable {
        var title: String
        var heading: String
        var notices: [Notice]
        /// The stored jog's pace and speed (detail screen): "Pace 5:26 min/km · 11.1 km/h".
        var facts: [String]
        var date: Field
        var distance: Field
        var duration: Field
        /// Pace and speed of the values typed so far, when they are valid.
        var preview: String?
        var actions: [Action]
        var links: [Link]
    }

    struct Confirmation: Equatable, Sendable {
        var title: String
        var question: String
        var detail: String
        var actions: [Action]
    }

    struct Report: Equatable, Sendable {
        var title: String
        var notices: [Notice]
        var explanation: String
        var columns: [String]
        /// Newest week first.
        var rows: [[String]]
        var emptyText: String
        var links: [Link]
        /// Which weeks this page shows; nil on a single page.
        var paging: String? = nil
    }

    struct Message: Equatable, Sendable {
        var title: String
        var notices: [Notice]
        var text: String
        var links: [Link]
    }
}
