import Testing
@testable import JogsModule

@Suite("Detail presenter: edit, and delete with confirmation")
struct JogDetailPresenterTests {
    let interactor = MockJogsInteractor()
    let router = MockJogsRouter()
    let view = MockJogsView()
    let presenter: JogDetailPresenter

    init() {
        interactor.jogs = [jog(7, "2026-01-05", metres: 5250, seconds: 1710)]
        presenter = JogDetailPresenter(interactor: interactor, router: router, id: 7, idText: "7")
        presenter.view = view
        presenter.viewDidAppear()
    }

    func form() throws -> JogsScreenViewObject.Form {
        guard case .form(let form) = presenter.shown else { throw TestFailure("not a form: \(presenter.shown)") }
        return form
    }

    @Test("shows the jog's figures and its values in editable fields")
    func shows() throws {
        let form = try form()
        #expect(form.title == "Jog of 2026-01-05")
        #expect(form.heading == "5.25 km in 28:30")
        #expect(form.facts == ["Pace 5:26 min/km · 11.1 km/h"])
        #expect([form.date.text, form.distance.text, form.duration.text] == ["2026-01-05", "5.25", "28:30"])
        #expect(form.actions.map(\.id) == ["save", "delete"])
        #expect(form.actions.map(\.role) == [.primary, .destructive])
    }

    @Test("Save changes stores the new values under the same id")
    func edit() throws {
        presenter.didTrigger(.save, form: JogsFormInput(date: "2026-01-06", distance: "6", duration: "33:00"))
        #expect(interactor.updated.map(\.id) == [7])
        #expect(interactor.jogs == [jog(7, "2026-01-06", metres: 6000, seconds: 1980)])
        let form = try form()
        #expect(form.notices.map(\.text) == ["Saved your changes."])
        #expect(form.distance.text == "6")
    }

    @Test("a refused edit keeps the typed values and the stored jog")
    func refusedEdit() throws {
        presenter.didTrigger(.save, form: JogsFormInput(date: "2026-01-06", distance: "0", duration: "33:00"))
        let form = try form()
        #expect(form.distance.text == "0")
        #expect(form.distance.error == "'0' km: the distance must be more than 0 km.")
        #expect(interactor.jogs == [jog(7, "2026-01-05", metres: 5250, seconds: 1710)])
    }

    @Test("Delete asks first; Cancel keeps the jog")
    func cancel() throws {
        presenter.didTrigger(.delete, form: JogsFormInput())
        guard case .confirmation(let confirmation) = presenter.shown else { Issue.record("no confirmation step"); return }
        #expect(confirmation.question == "Delete the jog of 2026-01-05?")
        #expect(confirmation.detail == "5.25 km in 28:30. This cannot be undone.")
        #expect(confirmation.actions.map(\.id) == ["confirm-delete", "cancel-delete"])
        #expect(interactor.deleted.isEmpty, "nothing is deleted before the confirmation")

        presenter.didTrigger(.cancelDelete, form: JogsFormInput())
        #expect(interactor.deleted.isEmpty)
        #expect(interactor.jogs.count == 1)
        #expect(try form().notices.map(\.text) == ["Nothing was deleted."])
        #expect(router.closed == 0)
    }

    @Test("Delete, then Delete again: the jog is gone, the list is told which, and the screen goes to the list")
    func confirm() throws {
        presenter.didTrigger(.delete, form: JogsFormInput())
        presenter.didTrigger(.confirmDelete, form: JogsFormInput())
        #expect(interactor.deleted == [7])
        #expect(router.closed == 1)
        guard case .message(let message) = presenter.shown else { Issue.record("\(presenter.shown)"); return }
        #expect(message.title == "Jog deleted")
        #expect(message.notices.map(\.text) == ["Deleted the jog of 2026-01-05 (5.25 km)."])
        #expect(interactor.notice == "Deleted the jog of 2026-01-05 (5.25 km).", "the list says it next")
        // Coming back to it does not bring it back or say "not found".
        presenter.viewDidAppear()
        guard case .message(let again) = presenter.shown else { Issue.record("\(presenter.shown)"); return }
        #expect(again.title == "Jog deleted")
    }

    @Test("a confirmation without Delete first deletes nothing")
    func confirmWithoutDelete() throws {
        presenter.didTrigger(.confirmDelete, form: JogsFormInput())
        #expect(interactor.deleted.isEmpty)
        #expect(try form().notices.map(\.text) == ["Press Delete first; the jog is deleted only once you confirm."])
    }

    @Test("edits typed before Delete are still there after Cancel")
    func editsSurviveCancel() throws {
        presenter.didChange(field: "distance", form: JogsFormInput(date: "2026-01-05", distance: "5.5", duration: "28:30"))
        presenter.didTrigger(.delete, form: JogsFormInput(date: "2026-01-05", distance: "5.5", duration: "28:30"))
        presenter.didTrigger(.cancelDelete, form: JogsFormInput())
        let form = try form()
        #expect(form.distance.text == "5.5")
        #expect(form.preview == "With your changes: Pace 5:11 min/km · 11.6 km/h")
    }

    @Test("another user's id, a deleted id and an id too large all show the same not-found screen")
    func notFound() {
        func message(_ presenter: JogDetailPresenter) -> JogsScreenViewObject.Message? {
            presenter.view = view
            presenter.viewDidAppear()
            if case .message(let message) = presenter.shown { return message }
            return nil
        }
        let missing = message(JogDetailPresenter(interactor: interactor, router: router, id: 8, idText: "8"))
        #expect(missing?.title == "Jog not found")
        #expect(missing?.text == "There is no jog 8 in your log. Pick one from the list of your jogs.")
        let huge = message(JogDetailPresenter(interactor: interactor, router: router, id: nil, idText: "99999999999999999999"))
        #expect(huge?.text == "There is no jog 99999999999999999999 in your log. Pick one from the list of your jogs.")

        // Logged in as bob now, alice's jog 7 on screen: it goes, and looks like any missing id.
        interactor.user = "bob"
        interactor.jogs = []
        let gone = message(presenter)
        #expect(gone?.title == "Jog not found")
        #expect(gone?.text == "There is no jog 7 in your log. Pick one from the list of your jogs.")
    }

    @Test("logged out meanwhile: the login screen, leading back to this jog")
    func loggedOut() {
        interactor.user = nil
        presenter.viewDidAppear()
        guard case .message(let message) = presenter.shown else { Issue.record("\(presenter.shown)"); return }
        #expect(message.links.map(\.route) == ["login?next=jogs%2F7"])
        presenter.didTrigger(.save, form: JogsFormInput(date: "2026-01-06", distance: "6", duration: "33:00"))
        #expect(interactor.updated.isEmpty)
    }
}
