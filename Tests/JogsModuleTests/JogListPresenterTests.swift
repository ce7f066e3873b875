import Testing
@testable import JogsModule

@Suite("List presenter")
struct JogListPresenterTests {
    let interactor = MockJogsInteractor()
    let view = MockJogsView()
    let otherView = MockJogsView()

    init() {
        interactor.jogs = [jog(1, "2026-01-05", metres: 5250, seconds: 1710),
                           jog(2, "2026-02-10", metres: 10_000, seconds: 3000),
                           jog(3, "2026-01-05", metres: 3000, seconds: 1080)]
    }

    func shown(_ presenter: JogListPresenter) throws -> JogsScreenViewObject.List {
        guard case .list(let list) = presenter.shown else { throw TestFailure("not a list: \(presenter.shown)") }
        return list
    }

    @Test("shows date, distance, duration and pace per jog, newest first, with totals")
    func rows() throws {
        let presenter = JogListPresenter(interactor: interactor)
        presenter.view = view
        presenter.viewDidAppear()
        let list = try shown(presenter)
        #expect(list.title == "Jogs of alice")
        #expect(list.jogs.map(\.route) == ["jogs/2", "jogs/3", "jogs/1"])
        // 3 km in 18:00: 360 s/km.
        #expect(list.jogs[1] == JogViewObject(date: "2026-01-05", distance: "3 km", duration: "18:00",
                                              pace: "6:00 min/km", route: "jogs/3"))
        // 18.25 km in 5790 s = 1:36:30; 5790 / 18.25 = 317.26 s/km → 5:17.
        #expect(list.totals == "3 jogs · 18.25 km · 1:36:30 · average pace 5:17 min/km")
        #expect(list.links.map(\.route) == ["jogs/new", "jogs/report"])
        #expect(list.actions.map(\.id) == ["filter", "clear-filter"])
    }

    @Test("Filter applies the typed dates; Clear filter shows everything again")
    func filter() throws {
        let presenter = JogListPresenter(interactor: interactor)
        presenter.view = view
        presenter.viewDidAppear()
        presenter.didTrigger(.filter, form: JogsFormInput(from: "2026-01-01", to: "2026-01-31"))
        var list = try shown(presenter)
        #expect(interactor.listed.last == DayRange(from: day("2026-01-01"), to: day("2026-01-31")))
        #expect(list.jogs.map(\.route) == ["jogs/3", "jogs/1"])
        #expect(list.totals == "From 2026-01-01 to 2026-01-31: 2 jogs · 8.25 km · 46:30 · average pace 5:38 min/km")
        #expect(list.from.text == "2026-01-01")

        presenter.didTrigger(.clearFilter, form: JogsFormInput(from: "2026-01-01", to: "2026-01-31"))
        list = try shown(presenter)
        #expect(list.jogs.count == 3)
        #expect(list.from.text == "")
        #expect(list.to.text == "")
        // An open end says so: no date that would look like a filter in force.
        #expect(list.from.placeholder == "any day" && list.to.placeholder == "any day")
    }

    @Test("the notice a deleted jog left is shown once, on the list's next appearance")
    func deletedNotice() throws {
        let presenter = JogListPresenter(interactor: interactor)
        presenter.view = view
        interactor.notice = "Deleted the jog of 2026-01-05 (5.25 km)."
        presenter.viewDidAppear()
        #expect(try shown(presenter).notices.map(\.text) == ["Deleted the jog of 2026-01-05 (5.25 km)."])
        presenter.viewDidAppear()
        #expect(try shown(presenter).notices.isEmpty)
    }

    @Test("a refused filter keeps the filter in force and says what is wrong on the field")
    func refusedFilter() throws {
        let presenter = JogListPresenter(interactor: interactor)
        presenter.view = view
        presenter.viewDidAppear()
        presenter.didTrigger(.filter, form: JogsFormInput(from: "2026-02-01", to: ""))
        presenter.didTrigger(.filter, form: JogsFormInput(from: "2026-13-01", to: ""))
        let list = try shown(presenter)
        #expect(list.jogs.map(\.route) == ["jogs/2"], "still from 2026-02-01")
        #expect(list.from.text == "2026-13-01", "what was typed stays to be corrected")
        #expect(list.from.error == "From: '2026-13-01' is not a day of the calendar; check the month and the day.")
        #expect(list.notices.map(\.text) == ["The dates were not applied, so the list still shows from 2026-02-01 on; correct them and press Filter."])

        // Typing in the field takes its message away.
        presenter.didChange(field: "from", form: JogsFormInput(from: "2026-12-01", to: ""))
        #expect(try self.shown(presenter).from.error == nil)
    }

    @Test("a link's filter applies at the first appear; a bad one shows everything and says so")
    func linkFilter() throws {
        let good = JogListPresenter(interactor: interactor, route: "jogs?from=2026-02-01", from: "2026-02-01", to: nil)
        good.view = view
        good.viewDidAppear()
        #expect(try shown(good).jogs.map(\.route) == ["jogs/2"])

        let bad = JogListPresenter(interactor: interactor, route: "jogs?from=x", from: "x", to: "2026-01-31")
        bad.view = otherView
        bad.viewDidAppear()
        let list = try shown(bad)
        #expect(list.jogs.count == 3)
        #expect(list.from.error == "From: 'x' is not a date: type YYYY-MM-DD, e.g. 2026-01-31.")
        #expect(list.notices.first?.text.hasPrefix("The date filter in the link was not applied") == true)
    }

    @Test("empty lists say what to do")
    func empty() throws {
        let presenter = JogListPresenter(interactor: interactor)
        presenter.view = view
        interactor.jogs = []
        presenter.viewDidAppear()
        #expect(try shown(presenter).emptyText == "No jogs yet: log your first run with New jog.")
        #expect(try shown(presenter).totals == nil)
        presenter.didTrigger(.filter, form: JogsFormInput(from: "2026-01-01", to: "2026-01-31"))
        #expect(try shown(presenter).emptyText
                == "No jogs from 2026-01-01 to 2026-01-31. Change the dates, or Clear filter to see them all.")
    }

    @Test("nobody logged in: the login screen, with no jog on it")
    func loggedOut() {
        interactor.user = nil
        let presenter = JogListPresenter(interactor: interactor, route: "jogs?from=2026-01-01")
        presenter.view = view
        presenter.viewDidAppear()
        guard case .message(let message) = presenter.shown else { Issue.record("\(presenter.shown)"); return }
        #expect(message.title == "Log in first")
        #expect(message.links == [.init(label: "Log in", route: "login?next=jogs%3Ffrom%3D2026-01-01")])
    }

    @Test("the list reloads each time it appears, with the user logged in then")
    func reloads() throws {
        let presenter = JogListPresenter(interactor: interactor)
        presenter.view = view
        presenter.viewDidAppear()
        interactor.jogs.removeAll { $0.id == 2 }
        presenter.viewDidAppear()
        #expect(try shown(presenter).jogs.count == 2)
        interactor.user = nil
        presenter.viewDidAppear()
        guard case .message = presenter.shown else { Issue.record("alice's jogs still shown after logout"); return }
    }

    @Test("a storage failure is shown with a way to try again")
    func failure() {
        interactor.failure = .unavailable("Your jogs could not be read: disk error. Nothing was changed; try again.")
        let presenter = JogListPresenter(interactor: interactor)
        presenter.view = view
        presenter.viewDidAppear()
        guard case .message(let message) = presenter.shown else { Issue.record("\(presenter.shown)"); return }
        #expect(message.notices.map(\.text) == ["Your jogs could not be read: disk error. Nothing was changed; try again."])
        #expect(message.links.map(\.route) == ["jogs"])
    }
}
