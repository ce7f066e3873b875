import Testing
@testable import JogsModule

@Suite("Report presenter")
struct JogReportPresenterTests {
    let interactor = MockJogsInteractor()
    let view = MockJogsView()

    @Test("one row per ISO week, newest first, with a line explaining the averages")
    func rows() {
        interactor.jogs = [jog(1, "2025-12-29", metres: 10_000, seconds: 3000),
                           jog(2, "2026-01-04", metres: 5250, seconds: 1710)]
        let presenter = JogReportPresenter(interactor: interactor)
        presenter.view = view
        presenter.viewDidAppear()
        guard case .report(let report) = presenter.shown else { Issue.record("\(presenter.shown)"); return }
        #expect(report.title == "Weekly report of alice")
        #expect(report.columns == ["Week", "Days", "Jogs", "Distance", "Avg speed", "Avg pace"])
        #expect(report.rows == [["2026-W01", "2025-12-29 to 2026-01-04", "2", "15.25 km", "11.7 km/h", "5:09 min/km"]])
        #expect(report.explanation.contains("total time and distance"))
    }

    @Test("no jogs: no table, a sentence saying what to do")
    func empty() {
        let presenter = JogReportPresenter(interactor: interactor)
        presenter.view = view
        presenter.viewDidAppear()
        guard case .report(let report) = presenter.shown else { Issue.record("\(presenter.shown)"); return }
        #expect(report.rows.isEmpty)
        #expect(report.emptyText == "No jogs yet, so there is no week to report. Log a run with New jog.")
    }

    @Test("nobody logged in: the login screen, leading back to the report")
    func loggedOut() {
        interactor.user = nil
        let presenter = JogReportPresenter(interactor: interactor)
        presenter.view = view
        presenter.viewDidAppear()
        guard case .message(let message) = presenter.shown else { Issue.record("\(presenter.shown)"); return }
        #expect(message.links.map(\.route) == ["login?next=jogs%2Freport"])
    }
}
