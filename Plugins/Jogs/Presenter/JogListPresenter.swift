import DenKit

/// The `jogs` screen: the user's jogs newest first with their totals, and a date filter (the
/// From/To fields, or `jogs?from=…&to=…`). Reloads whenever it appears, so a jog added, edited
/// or deleted on another screen shows at once.
///
/// A refused filter keeps the filter that was in force (everything, for a link's) and says so
/// on the fields; it never empties the list by surprise.
final class JogListPresenter: JogsPresenterInput {
    typealias Object = JogsScreenViewObject

    weak var view: (any JogsViewInput)?
    private let interactor: any JogsInteractorInput
    private let route: String
    private var fromText: String
    private var toText: String
    /// The filter in force.
    private var range = DayRange.everything
    /// The page shown (`jogs?page=2`); a new filter starts at the first.
    private var page: Int
    private var filterErrors = DayRangeErrors()
    /// The link's filter is applied at the first appear, inside a host call (the session is known).
    private var linkFilterPending: Bool
    private var listing: JogListing?
    private var problem: JogsProblem?
    /// Messages about the latest event.
    private var notices: [Object.Notice] = []

    init(interactor: any JogsInteractorInput, route: String = JogsRoutes.list, from: String? = nil, to: String? = nil, page: Int = 1) {
        self.interactor = interactor
        self.page = page
        self.route = route
        fromText = from ?? ""
        toText = to ?? ""
        linkFilterPending = from != nil || to != nil
    }

    // MARK: - JogsPresenterInput

    func viewDidAppear() {
        defer { show() }
        notices = []
        // Said once, on the list the user comes to after deleting a jog.
        if let left = interactor.takeNotice() { notices.append(.init(kind: .success, text: left)) }
        if linkFilterPending {
            linkFilterPending = false
            applyFilter(failure: "The date filter in the link was not applied, so all your jogs are shown; "
                + "correct the dates below and press Filter.")
        }
        reload()
    }

    func didTrigger(_ action: JogsAction, form: JogsFormInput) {
        defer { show() }
        notices = []
        if let from = form.from { fromText = from }
        if let to = form.to { toText = to }
        switch action {
        case .filter:
            page = 1
            applyFilter(failure: "The dates were not applied, so the list still shows \(Self.describe(range, all: "all your jogs")); "
                + "correct them and press Filter.")
        case .clearFilter:
            page = 1
            fromText = ""
            toText = ""
            filterErrors = DayRangeErrors()
            range = .everything
        case .save, .delete, .confirmDelete, .cancelDelete:
            notices.append(JogsMessages.unknownAction(action.id))
        case .unknown(let id):
            notices.append(JogsMessages.unknownAction(id))
        }
        reload()
    }

    func didChange(field: String, form: JogsFormInput) {
        defer { show() }
        if let from = form.from, from != fromText { fromText = from; filterErrors.from = nil }
        if let to = form.to, to != toText { toText = to; filterErrors.to = nil }
    }

    // MARK: - State (hot swap)

    private enum StateKey {
        static let appliedFrom = "filter.from"
        static let appliedTo = "filter.to"
    }

    var state: JogsScreenState {
        var fields = [Object.FieldID.from: fromText, Object.FieldID.to: toText]
        fields[StateKey.appliedFrom] = range.from?.description
        fields[StateKey.appliedTo] = range.to?.description
        return JogsScreenState(screen: .list, fields: fields)
    }

    func restore(_ state: JogsScreenState) throws {
        defer { show() }
        try JogsScreenState.expect(state, is: .list)
        let applied = DayRange(from: state.fields[StateKey.appliedFrom].flatMap(Day.init),
                               to: state.fields[StateKey.appliedTo].flatMap(Day.init))
        fromText = state.fields[Object.FieldID.from] ?? ""
        toText = state.fields[Object.FieldID.to] ?? ""
        range = applied
        linkFilterPending = false
    }

    // MARK: - View object

    /// Pushes the screen for the current state into the view (every input ends with it).
    private func show() {
        view?.display(viewObject)
    }

    private var viewObject: Object {
        if let problem, let message = JogsMessages.screen(for: problem, route: route) { return .message(message) }
        guard let listing else { return .message(JogsMessages.loading) }
        var shown = [JogsMessages.unreadable(listing.unreadable)].compactMap { $0 }
        shown += notices
        let period = Self.describe(listing.range, all: "")
        // Only one page of jogs is drawn; the totals stay over the whole filter.
        let shownPage = JogPage(requested: page, total: listing.jogs.count, size: JogPage.listSize)
        var pages: [Object.Link] = []
        if shownPage.number > 1 { pages.append(.init(label: "Newer jogs", route: JogsRoutes.list(listing.range, page: shownPage.number - 1))) }
        if shownPage.number < shownPage.count { pages.append(.init(label: "Older jogs", route: JogsRoutes.list(listing.range, page: shownPage.number + 1))) }
        return .list(Object.List(
            title: "Jogs of \(listing.user)",
            notices: shown,
            // An empty end of the range is open: its placeholder must not look like a date in force.
            from: Object.Field(id: Object.FieldID.from, label: "From", text: fromText,
                               placeholder: "any day", error: filterErrors.from),
            to: Object.Field(id: Object.FieldID.to, label: "To", text: toText,
                             placeholder: "any day", error: filterErrors.to),
            actions: [Object.Action(id: Object.ActionID.filter, label: "Filter", role: .primary),
                      Object.Action(id: Object.ActionID.clearFilter, label: "Clear filter", role: .secondary)],
            jogs: listing.jogs[shownPage.items].map(JogFormatter.viewObject),
            emptyText: listing.range.isEverything
                ? "No jogs yet: log your first run with New jog."
                : "No jogs \(period). Change the dates, or Clear filter to see them all.",
            totals: listing.jogs.isEmpty ? nil
                : (period.isEmpty ? "" : "\(period.prefix(1).uppercased())\(period.dropFirst()): ") + JogFormatter.totals(listing.totals),
            links: pages + [JogsMessages.newJog, JogsMessages.report],
            paging: shownPage.caption("Jogs")))
    }

    // MARK: - Private

    private func applyFilter(failure: String) {
        switch interactor.filter(from: fromText, to: toText) {
        case .success(let applied):
            range = applied
            filterErrors = DayRangeErrors()
        case .failure(let errors):
            filterErrors = errors
            notices.append(.init(kind: .warning, text: failure))
        }
    }

    private func reload() {
        do {
            listing = try interactor.list(range)
            problem = nil
        } catch {
            listing = nil
            problem = error
        }
    }

    /// "from 2026-01-01 to 2026-01-31", "from 2026-01-01", "up to 2026-01-31", or `all`.
    static func describe(_ range: DayRange, all: String) -> String {
        switch (range.from, range.to) {
        case (let from?, let to?): "from \(from) to \(to)"
        case (let from?, nil): "from \(from) on"
        case (nil, let to?): "up to \(to)"
        case (nil, nil): all
        }
    }
}
