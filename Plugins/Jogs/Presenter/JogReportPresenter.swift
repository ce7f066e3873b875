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

    init(interactor: any JogsInteractorInput) {
        self.interactor = interactor
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
        return .report(Object.Report(
            title: "Weekly report of \(report.user)",
            notices: [JogsMessages.unreadable(report.unreadable)].compactMap { $0 } + notices,
            explanation: "Per ISO week, Monday to Sunday. Average speed and pace are over the week's total time and distance.",
            columns: ["Week", "Days", "Jogs", "Distance", "Avg speed", "Avg pace"],
            rows: report.weeks.map(Self.row),
            emptyText: "No jogs yet, so there is no week to report. Log a run with New jog.",
            links: [JogsMessages.allJogs, JogsMessages.newJog]))
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
