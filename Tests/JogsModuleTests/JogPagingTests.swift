import DenKit
import Foundation
import Testing
@testable import JogsModule

@Suite("Paging: the list and the report show one page, the totals stay over the whole filter")
struct JogPagingTests {
    let interactor = MockJogsInteractor()
    let view = MockJogsView()

    /// `count` jogs of 5 km in 30:00, one a day from 2020-01-01 on.
    func jogs(_ count: Int) -> [Jog] {
        let start = Calendar(identifier: .gregorian).date(from: DateComponents(timeZone: .gmt, year: 2020, month: 1, day: 1))!
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return (1...count).map { index in
            jog(index, formatter.string(from: start.addingTimeInterval(Double(index - 1) * 86_400)), metres: 5000, seconds: 1800)
        }
    }

    func list(page: Int, from: String? = nil) throws -> JogsScreenViewObject.List {
        let presenter = JogListPresenter(interactor: interactor, from: from, page: page)
        presenter.view = view
        presenter.viewDidAppear()
        guard case .list(let list) = presenter.shown else { throw TestFailure("not a list: \(presenter.shown)") }
        return list
    }

    @Test("120 jogs: 50 a page, newest first, links to older and newer pages, totals over all 120")
    func listPages() throws {
        interactor.jogs = jogs(120)
        let first = try list(page: 1)
        #expect(first.jogs.count == 50)
        #expect(first.jogs.first?.route == "jogs/120")
        #expect(first.totals == "120 jogs · 600 km · 60:00:00 · average pace 6:00 min/km")
        #expect(first.paging == "Jogs 1–50 of 120 · page 1 of 3")
        #expect(first.links.map(\.route) == ["jogs?page=2", "jogs/new", "jogs/report"])

        let second = try list(page: 2)
        #expect(second.jogs.first?.route == "jogs/70")
        #expect(second.links.map(\.label).prefix(2) == ["Newer jogs", "Older jogs"])
        #expect(second.totals == first.totals)

        let last = try list(page: 99)
        #expect(last.jogs.count == 20, "a page past the end shows the last one")
        #expect(last.paging == "Jogs 101–120 of 120 · page 3 of 3")
        #expect(last.links.map(\.route).first == "jogs?page=2")
    }

    @Test("a page link keeps the filter, and the totals are the filter's")
    func filteredPages() throws {
        interactor.jogs = jogs(120)
        let filtered = try list(page: 1, from: "2020-01-11")
        #expect(filtered.totals?.hasPrefix("From 2020-01-11 on: 110 jogs") == true, "\(filtered.totals ?? "")")
        #expect(filtered.links.first?.route == "jogs?from=2020-01-11&page=2")
    }

    @Test("few jogs: one page, no paging line and no page links")
    func singlePage() throws {
        interactor.jogs = jogs(3)
        let only = try list(page: 1)
        #expect(only.paging == nil)
        #expect(only.links.map(\.route) == ["jogs/new", "jogs/report"])
    }

    @Test("the report shows 52 weeks a page, with links between pages")
    func reportPages() throws {
        interactor.jogs = jogs(120 * 7).filter { $0.id % 7 == 0 } // one jog a week, 120 weeks
        let presenter = JogReportPresenter(interactor: interactor, page: 2)
        presenter.view = view
        presenter.viewDidAppear()
        guard case .report(let report) = presenter.shown else { throw TestFailure("not a report: \(presenter.shown)") }
        #expect(report.rows.count == 52)
        #expect(report.paging == "Weeks 53–104 of 120 · page 2 of 3")
        #expect(report.links.map(\.route).prefix(2) == ["jogs/report", "jogs/report?page=3"])
    }

    @Test("the view draws the paging line in both front-ends' screen, and the builder reads ?page=")
    func viewAndBuilder() throws {
        interactor.jogs = jogs(120)
        let screen = JogsView.screen(for: try list(page: 2))
        #expect(screen.elements.contains(.text("Jogs 51–100 of 120 · page 2 of 3", style: .caption)))
        let presenter = JogsBuilder.presenter(for: .list, context("jogs?page=3", pattern: "jogs", query: ["page": "3"]),
                                              interactor: interactor, router: MockJogsRouter())
        presenter.view = view
        presenter.viewDidAppear()
        guard case .list(let list) = presenter.shown else { throw TestFailure("not a list") }
        #expect(list.paging == "Jogs 101–120 of 120 · page 3 of 3")
    }
}
