import DenKit

/// The `jogs/new` screen: date (today by default), distance and duration. Save checks every
/// field at once (`JogValidator`, through the interactor); refused values stay in their fields
/// with a message each, so nothing typed is lost. A saved jog opens on its detail screen.
final class JogFormPresenter: JogsPresenterInput {
    typealias Object = JogsScreenViewObject

    weak var view: (any JogsViewInput)?
    private let interactor: any JogsInteractorInput
    private let router: any JogsRouterInput
    private var draft: JogDraft
    private var errors = JogFieldErrors()
    private var problem: JogsProblem?
    private var notices: [Object.Notice] = []

    init(interactor: any JogsInteractorInput, router: any JogsRouterInput) {
        self.interactor = interactor
        self.router = router
        draft = JogDraft(date: interactor.today.description)
    }

    // MARK: - JogsPresenterInput

    /// Nothing to load, but the user is checked: nobody logged in gets the login screen.
    func viewDidAppear() {
        defer { show() }
        notices = []
        do {
            _ = try interactor.currentUser()
            problem = nil
        } catch {
            problem = error
        }
    }

    func didTrigger(_ action: JogsAction, form: JogsFormInput) {
        defer { show() }
        notices = []
        draft = form.applied(to: draft)
        switch action {
        case .save:
            save()
        case .delete, .confirmDelete, .cancelDelete, .filter, .clearFilter, .unknown:
            notices.append(JogsMessages.unknownAction(action.id))
        }
    }

    func didChange(field: String, form: JogsFormInput) {
        defer { show() }
        let before = draft
        draft = form.applied(to: draft)
        // The field being fixed loses its message; the others keep theirs until the next Save.
        if draft.date != before.date { errors.date = nil }
        if draft.distance != before.distance { errors.distance = nil }
        if draft.duration != before.duration { errors.duration = nil }
    }

    // MARK: - State (hot swap)

    var state: JogsScreenState {
        JogsScreenState(screen: .new, fields: JogsScreenState.fields(of: draft))
    }

    func restore(_ state: JogsScreenState) throws {
        defer { show() }
        try JogsScreenState.expect(state, is: .new)
        draft = JogsScreenState.draft(from: state.fields, over: draft)
        errors = JogFieldErrors()
    }

    // MARK: - View object

    /// Pushes the screen for the current state into the view (every input ends with it).
    private func show() {
        view?.display(viewObject)
    }

    private var viewObject: Object {
        if let problem, let message = JogsMessages.screen(for: problem, route: JogsRoutes.new) { return .message(message) }
        return .form(Object.Form(
            title: "New jog",
            heading: "Log a run",
            notices: notices,
            facts: [],
            date: Object.Field(id: Object.FieldID.date, label: "Date", text: draft.date,
                               placeholder: interactor.today.description, error: errors.date),
            distance: Object.Field(id: Object.FieldID.distance, label: "Distance (km)", text: draft.distance,
                                   placeholder: "5.2", error: errors.distance),
            duration: Object.Field(id: Object.FieldID.duration, label: "Duration (h:mm:ss or mm:ss)", text: draft.duration,
                                   placeholder: "28:30", error: errors.duration),
            preview: JogPreview.line(for: interactor.validate(draft)),
            actions: [Object.Action(id: Object.ActionID.save, label: "Save", role: .primary)],
            links: [JogsMessages.allJogs]))
    }

    // MARK: - Private

    private func save() {
        do {
            let jog = try interactor.add(draft)
            errors = JogFieldErrors()
            notices.append(.init(kind: .success, text: "Saved the jog of \(jog.date)."))
            router.showSavedJog(id: jog.id)
        } catch .invalid(let refused) {
            errors = refused
            notices.append(.init(kind: .error, text: "The jog was not saved: correct the fields marked below and press Save again."))
        } catch .unavailable(let message) {
            notices.append(.init(kind: .error, text: message))
        } catch {
            problem = error
        }
    }
}
