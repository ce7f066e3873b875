import Testing
@testable import JogsModule

@Suite("New jog presenter")
struct JogFormPresenterTests {
    let interactor = MockJogsInteractor()
    let router = MockJogsRouter()
    let view = MockJogsView()

    func form(_ presenter: JogFormPresenter) throws -> JogsScreenViewObject.Form {
        guard case .form(let form) = presenter.shown else { throw TestFailure("not a form: \(presenter.shown)") }
        return form
    }

    @Test("the form starts with today's date and empty distance and duration")
    func start() throws {
        let presenter = JogFormPresenter(interactor: interactor, router: router)
        presenter.view = view
        presenter.viewDidAppear()
        let form = try form(presenter)
        #expect(form.title == "New jog")
        #expect([form.date.text, form.distance.text, form.duration.text] == ["2026-03-15", "", ""])
        // A browser shows its own date format; the terminal adds YYYY-MM-DD to a date field itself.
        #expect(form.date.label == "Date")
        #expect(form.preview == nil)
        #expect(form.actions.map(\.id) == ["save"])
    }

    @Test("Save stores the jog and opens it")
    func save() throws {
        let presenter = JogFormPresenter(interactor: interactor, router: router)
        presenter.view = view
        presenter.didTrigger(.save, form: JogsFormInput(date: "2026-03-14", distance: "5,25", duration: "28:30"))
        #expect(interactor.added == [JogDraft(date: "2026-03-14", distance: "5,25", duration: "28:30")])
        #expect(router.shownJogs == [1])
        #expect(try form(presenter).notices.map(\.text) == ["Saved the jog of 2026-03-14."])
    }

    @Test("refused values stay in their fields with a message each, and nothing opens")
    func refused() throws {
        let presenter = JogFormPresenter(interactor: interactor, router: router)
        presenter.view = view
        presenter.didTrigger(.save, form: JogsFormInput(date: "2026-03-16", distance: "5", duration: "1:75"))
        let form = try form(presenter)
        #expect(router.shownJogs.isEmpty)
        #expect(form.date.text == "2026-03-16")
        #expect(form.duration.text == "1:75")
        #expect(form.date.error == "2026-03-16 is in the future; a jog can only be logged on or before today, 2026-03-15.")
        #expect(form.distance.error == nil)
        #expect(form.duration.error == "'1:75' has 75 seconds; seconds go from 00 to 59 (75 seconds is 1:15).")
        #expect(form.notices.map(\.kind) == [.error])

        // Fixing one field takes its message away and keeps the other's.
        presenter.didChange(field: "duration", form: JogsFormInput(date: "2026-03-16", distance: "5", duration: "1:15"))
        #expect(try self.form(presenter).duration.error == nil)
        #expect(try self.form(presenter).date.error != nil)
    }

    @Test("the preview follows the typing once the values make a jog")
    func preview() throws {
        let presenter = JogFormPresenter(interactor: interactor, router: router)
        presenter.view = view
        presenter.didChange(field: "distance", form: JogsFormInput(distance: "10"))
        #expect(try form(presenter).preview == nil)
        presenter.didChange(field: "duration", form: JogsFormInput(duration: "50:00"))
        #expect(try form(presenter).preview == "Pace 5:00 min/km · 12.0 km/h")
    }

    @Test("nobody logged in: the login screen, and Save stores nothing")
    func loggedOut() {
        interactor.user = nil
        let presenter = JogFormPresenter(interactor: interactor, router: router)
        presenter.view = view
        presenter.viewDidAppear()
        guard case .message(let message) = presenter.shown else { Issue.record("\(presenter.shown)"); return }
        #expect(message.links.map(\.route) == ["login?next=jogs%2Fnew"])
        presenter.didTrigger(.save, form: JogsFormInput(date: "2026-03-14", distance: "5", duration: "30:00"))
        #expect(interactor.jogs.isEmpty)
        #expect(router.shownJogs.isEmpty)
    }

    @Test("a storage failure keeps everything typed and says what happened")
    func storageFailure() throws {
        interactor.failure = .unavailable("Could not save the new jog: disk full. Nothing was changed; try again.")
        let presenter = JogFormPresenter(interactor: interactor, router: router)
        presenter.view = view
        presenter.didTrigger(.save, form: JogsFormInput(date: "2026-03-14", distance: "5", duration: "30:00"))
        let form = try form(presenter)
        #expect(form.notices.map(\.text) == ["Could not save the new jog: disk full. Nothing was changed; try again."])
        #expect([form.date.text, form.distance.text, form.duration.text] == ["2026-03-14", "5", "30:00"])
        #expect(router.shownJogs.isEmpty)
    }

    @Test("an unknown action says so and changes nothing")
    func unknownAction() throws {
        let presenter = JogFormPresenter(interactor: interactor, router: router)
        presenter.view = view
        presenter.didTrigger(JogsAction(id: "launch"), form: JogsFormInput())
        #expect(try form(presenter).notices.map(\.text) == ["This screen has no action 'launch'; use one of its buttons."])
        #expect(interactor.added.isEmpty)
    }
}
