import DenKit

/// The `jogs/report` screen: per ISO week, the number of jogs, total distance, average speed
/// and average pace (over the week's total time and distance), newest week first.
final class JogReportPresenter: JogsPresenterInput {
    typealias Object = JogsScreenViewObject

    weak var view: (any JogsViewInput)?
    private let interactor: any JogsInteractorInput
    private var report: JogReport?
    private var problem: JogsProblem?
    private var notices: [Object.Notice] = []
    /// The page of weeks shown (`jogs/report?page=2`).
    private let page: Int

    init(interactor: any JogsInteractorInput, page: Int = 1) {
        self.interactor = interactor
        self.page = page
    }

    // MARK: - JogsPresenterInput

    func viewDidAppear() {
        defer { show() }
        notices = []
        reload()
    }

    func didTrigger(_ action: JogsAction, form: JogsFormInput) {
        defer { show() }
        notices = [JogsMessages.unknownAction(action.id)]
        reload()
    }

    func didChange(field: String, form: JogsFormInput) {
        show()
    }

    // MARK: - State (hot swap)

    var state: JogsScreenState { JogsScreenState(screen: .report) }

    func restore(_ state: JogsScreenState) throws {
        defer { show() }
        try JogsScreenState.expect(state, is: .report)
    }

    // MARK: - View object

    /// Pushes the screen for the current state into the view (every input ends with it).
    private func show() {
        view?.display(viewObject)
    }

    private var viewObject: Object {
        if let problem, let message = JogsMessages.screen(for: problem, route: JogsRoutes.report) { return .message(message) }
        guard let report else { return .message(JogsMessages.loading) }
        let shownPage = JogPage(requested: page, total: report.weeks.count, size: JogPage.reportSize)
        var pages: [Object.Link] = []
        if shownPage.number > 1 { pages.append(.init(label: "Newer weeks", route: JogsRoutes.report(page: shownPage.number - 1))) }
        if shownPage.number < shownPage.count { pages.append(.init(label: "Older weeks", route: JogsRoutes.report(page: shownPage.number + 1))) }
        return .report(Object.Report(
            title: "Weekly report of \(report.user)",
            notices: [JogsMessages.unreadable(report.unreadable)].compactMap { $0 } + notices,
            explanation: "Per ISO week, Monday to Sunday. Average speed and pace are over the week's total time and distance.",
            columns: ["Week", "Days", "Jogs", "Distance", "Avg speed", "Avg pace"],
            rows: report.weeks[shownPage.items].map(Self.row),
            emptyText: "No jogs yet, so there is no week to report. Log a run with New jog.",
            links: pages + [JogsMessages.allJogs, JogsMessages.newJog],
            paging: shownPage.caption("Weeks")))
    }

    static func row(_ summary: WeekSummary) -> [String] {
        let days = [summary.week.monday, summary.week.sunday].compactMap { $0?.description }.joined(separator: " to ")
        return [summary.week.description, days, String(summary.totals.count),
                JogFormatter.distance(summary.totals.distanceMetres), JogFormatter.speed(summary.totals.speedTenthsKmh),
                JogFormatter.pace(summary.totals.paceSecondsPerKm)]
    }

    // MARK: - Private

    private func reload() {
        do {
            report = try interactor.weeklyReport()
            problem = nil
        } catch {
            report = nil
            problem = error
        }
    }
}
