import DenKit

/// The `jogs/<id>` screen: one jog's figures, its fields to edit, Save changes and Delete.
/// Delete asks first (a confirmation step: Delete again, or Cancel to keep the jog); after a
/// delete the screen says so and goes back.
///
/// The jog is read again at every appear with the user logged in now: a jog of another user,
/// or one deleted meanwhile, shows "Jog not found", and nothing of it is kept on screen.
final class JogDetailPresenter: JogsPresenterInput {
    typealias Object = JogsScreenViewObject

    weak var view: (any JogsViewInput)?
    enum Mode: Equatable {
        case showing
        case confirmingDelete
        /// Deleted; the figures are kept to say what went.
        case deleted(date: String, distance: String)
    }

    private let interactor: any JogsInteractorInput
    private let router: any JogsRouterInput
    /// Nil when the route's number cannot be an id (ids start at 1): always "not found".
    private let id: Int?
    private let idText: String
    private var jog: Jog?
    /// What the user typed over the stored values; nil while the fields show the stored jog.
    private var draft: JogDraft?
    private var errors = JogFieldErrors()
    private(set) var mode = Mode.showing
    private var problem: JogsProblem?
    private var notices: [Object.Notice] = []

    init(interactor: any JogsInteractorInput, router: any JogsRouterInput, id: Int?, idText: String) {
        self.interactor = interactor
        self.router = router
        self.id = id
        self.idText = idText
    }

    /// This screen's route, for "Log in" (and back) and "Try again".
    private var route: String { "jogs/\(idText)" }

    // MARK: - JogsPresenterInput

    func viewDidAppear() {
        defer { show() }
        notices = []
        if case .deleted = mode { return }
        reload()
    }

    func didTrigger(_ action: JogsAction, form: JogsFormInput) {
        defer { show() }
        notices = []
        if case .deleted = mode { return }
        if jog == nil || problem != nil { reload() }
        guard let jog, problem == nil else { return }
        switch action {
        case .save:
            draft = form.applied(to: draft ?? Self.draft(of: jog))
            mode = .showing
            save(jog)
        case .delete:
            // Keep any edits typed so far: Cancel comes back to them.
            let edited = form.applied(to: draft ?? Self.draft(of: jog))
            draft = edited == Self.draft(of: jog) ? nil : edited
            mode = .confirmingDelete
        case .cancelDelete:
            mode = .showing
            notices.append(.init(kind: .info, text: "Nothing was deleted."))
        case .confirmDelete:
            guard mode == .confirmingDelete else {
                notices.append(.init(kind: .warning, text: "Press Delete first; the jog is deleted only once you confirm."))
                return
            }
            delete(jog)
        case .filter, .clearFilter, .unknown:
            notices.append(JogsMessages.unknownAction(action.id))
        }
    }

    func didChange(field: String, form: JogsFormInput) {
        defer { show() }
        guard let jog, mode == .showing else { return }
        let before = draft ?? Self.draft(of: jog)
        let after = form.applied(to: before)
        if after.date != before.date { errors.date = nil }
        if after.distance != before.distance { errors.distance = nil }
        if after.duration != before.duration { errors.duration = nil }
        draft = after == Self.draft(of: jog) ? nil : after
    }

    // MARK: - State (hot swap)

    var state: JogsScreenState {
        JogsScreenState(screen: .detail, fields: draft.map(JogsScreenState.fields(of:)) ?? [:],
                        confirmingDelete: mode == .confirmingDelete)
    }

    func restore(_ state: JogsScreenState) throws {
        defer { show() }
        try JogsScreenState.expect(state, is: .detail)
        draft = state.fields.isEmpty ? nil : JogsScreenState.draft(from: state.fields, over: JogDraft())
        mode = state.confirmingDelete ? .confirmingDelete : .showing
        errors = JogFieldErrors()
    }

    // MARK: - View object

    /// Pushes the screen for the current state into the view (every input ends with it).
    private func show() {
        view?.display(viewObject)
    }

    private var viewObject: Object {
        if let problem, let message = JogsMessages.screen(for: problem, route: route, idText: idText) {
            return .message(message)
        }
        if case .deleted(let date, let distance) = mode {
            return .message(Object.Message(
                title: "Jog deleted", notices: [.init(kind: .success, text: "Deleted the jog of \(date) (\(distance)).")],
                text: "It is gone from your log.", links: [JogsMessages.allJogs]))
        }
        guard let jog else { return .message(JogsMessages.loading) }
        let shown = JogFormatter.viewObject(jog)
        if mode == .confirmingDelete {
            return .confirmation(Object.Confirmation(
                title: "Delete jog?",
                question: "Delete the jog of \(shown.date)?",
                detail: "\(shown.distance) in \(shown.duration). This cannot be undone.",
                actions: [Object.Action(id: Object.ActionID.confirmDelete, label: "Delete", role: .destructive),
                          Object.Action(id: Object.ActionID.cancelDelete, label: "Cancel", role: .secondary)]))
        }
        let texts = draft ?? Self.draft(of: jog)
        return .form(Object.Form(
            title: "Jog of \(shown.date)",
            heading: "\(shown.distance) in \(shown.duration)",
            notices: notices,
            facts: ["Pace \(shown.pace) · \(JogFormatter.speed(jog.speedTenthsKmh))"],
            date: Object.Field(id: Object.FieldID.date, label: "Date", text: texts.date,
                               placeholder: shown.date, error: errors.date),
            distance: Object.Field(id: Object.FieldID.distance, label: "Distance (km)", text: texts.distance,
                                   placeholder: "5.2", error: errors.distance),
            duration: Object.Field(id: Object.FieldID.duration, label: "Duration (h:mm:ss or mm:ss)", text: texts.duration,
                                   placeholder: "28:30", error: errors.duration),
            preview: draft.flatMap { JogPreview.line(for: interactor.validate($0)) }.map { "With your changes: \($0)" },
            actions: [Object.Action(id: Object.ActionID.save, label: "Save changes", role: .primary),
                      Object.Action(id: Object.ActionID.delete, label: "Delete", role: .destructive)],
            links: [JogsMessages.allJogs]))
    }

    // MARK: - Private

    /// The stored jog's values as the fields show them.
    static func draft(of jog: Jog) -> JogDraft {
        JogDraft(date: jog.date.description, distance: JogFormatter.kilometres(jog.distanceMetres),
                 duration: JogFormatter.duration(jog.durationSeconds))
    }

    private func reload() {
        guard let id else {
            forget(.notFound(id: 0))
            return
        }
        do {
            jog = try interactor.jog(id: id)
            problem = nil
        } catch {
            forget(error)
        }
    }

    /// Nothing of a jog stays on screen once it cannot be shown (logged out, another user) or
    /// once it is deleted (`problem` nil).
    private func forget(_ problem: JogsProblem?) {
        self.problem = problem
        jog = nil
        draft = nil
        errors = JogFieldErrors()
        mode = .showing
    }

    private func save(_ jog: Jog) {
        guard let id, let draft else { return }
        do {
            self.jog = try interactor.update(id: id, with: draft)
            self.draft = nil
            errors = JogFieldErrors()
            notices.append(.init(kind: .success, text: "Saved your changes."))
        } catch .invalid(let refused) {
            errors = refused
            notices.append(.init(kind: .error, text: "Your changes were not saved: correct the fields marked below and press Save changes again."))
        } catch .unavailable(let message) {
            notices.append(.init(kind: .error, text: message))
        } catch {
            forget(error)
        }
    }

    private func delete(_ jog: Jog) {
        guard let id else { return }
        do {
            try interactor.delete(id: id)
            let shown = JogFormatter.viewObject(jog)
            forget(nil)
            mode = .deleted(date: shown.date, distance: shown.distance)
            interactor.leaveNotice("Deleted the jog of \(shown.date) (\(shown.distance)).")
            router.closeDeletedJog()
        } catch .unavailable(let message) {
            mode = .showing
            notices.append(.init(kind: .error, text: message))
        } catch {
            forget(error)
        }
    }
}
