@testable import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

@Suite("Hot swap: a new version replaces the old in every live session, with state kept")
struct HotSwapTests {
    @Test("v1 → v2 while instances in several sessions hold state: state kept, v2 behaviour seen")
    func swapKeepsState() throws {
        let app = try SwapTestApp()
        let first = app.runtime.makeSession(), second = app.runtime.makeSession(), third = app.runtime.makeSession()
        first.open("swap")
        for _ in 0..<3 { first.add() }
        #expect(first.current?.count == 3)
        second.open("swap/40")
        second.add()
        third.open("swap")
        third.open("swap/7")
        #expect(third.current?.text.contains("swap v1") == true)

        let report = try app.swap(to: ["-DSWAP_VERSION=2"])
        #expect(report.outcome == .swapped, "\(report)")
        #expect(report.generation == 2)
        #expect(report.instancesSwapped == 4)
        #expect(report.statesKept == 4)
        #expect(report.duration > .zero)
        #expect(report.description.contains("swapped to generation 2 in "))

        // The redrawn screens are v2's, with the old counts.
        #expect(first.current?.text.contains("swap v2") == true)
        #expect(first.current?.count == 3)
        #expect(second.current?.count == 41)
        #expect(third.current?.count == 7)
        // v2 adds 2.
        #expect(first.add().count == 5)
        #expect(second.add().count == 43)
        // The screen below the top was swapped too.
        let below = third.back()
        #expect(below.text.contains("swap v2"))
        #expect(below.count == 0)
        // A new session gets v2 as well.
        let fresh = app.runtime.makeSession()
        #expect(fresh.open("swap").text.contains("swap v2"))

        let record = try #require(app.record)
        #expect(record.version == "2.0.0")
        #expect(record.generation == 2)
        #expect(record.retainedImages == 1)
        #expect(record.retainedBytes > 0)
        #expect(record.swapError == nil)
        #expect(record.summaryDocument.generation == 2)
    }

    @Test("the same file again changes nothing")
    func unchangedFile() throws {
        let app = try SwapTestApp()
        let report = app.swapper.swap(app.file)
        guard case .unchanged = report.outcome else {
            Issue.record("expected no change, got \(report)")
            return
        }
        #expect(app.record?.generation == 1)
    }

    @Test("a version that adds and drops routes: the table follows, an open dropped route says so")
    func routesAddedAndDropped() throws {
        let app = try SwapTestApp()
        let session = app.runtime.makeSession()
        session.open("swap/5")
        let report = try app.swap(to: ["-DSWAP_VERSION=2", "-DEXTRA_ROUTE", "-DNO_START_ROUTE"])
        #expect(report.outcome == .swapped, "\(report)")
        #expect(report.routesAdded == ["swap/extra"])
        #expect(report.routesDropped == ["swap/<int:start>"])
        #expect((try? app.runtime.registry.resolve("swap/extra").get()) != nil)
        #expect((try? app.runtime.registry.resolve("swap/5").get()) == nil)
        #expect(session.current?.text.contains("no longer serves") == true)
        #expect(session.current?.isHostScreen == true)
        #expect(app.record?.routes == ["swap", "swap/extra"])
    }

    @Test("a restore that fails rebuilds that screen fresh, says so, and the swap goes on (the default)")
    func restoreFailsRebuildsFresh() throws {
        let app = try SwapTestApp()
        let session = app.runtime.makeSession()
        session.open("swap/9")
        let report = try app.swap(to: ["-DSWAP_VERSION=2", "-DRESTORE_FAILS"])
        #expect(report.outcome == .swapped, "\(report)")
        #expect(report.statesKept == 0)
        #expect(report.rebuiltFresh.count == 1)
        #expect(report.description.contains("could not restore"))
        // Fresh: the route's own start value, not a half-restored state.
        #expect(session.current?.count == 9)
        #expect(session.current?.text.contains("starts fresh") == true)
        #expect(session.current?.text.contains("swap v2") == true)
    }

    @Test("a module without snapshot/restore is rebuilt from its route")
    func noStateRebuildsFromRoute() throws {
        let app = try SwapTestApp()
        let session = app.runtime.makeSession()
        session.open("swap/3")
        session.add()
        let report = try app.swap(to: ["-DSWAP_VERSION=2", "-DNO_STATE"])
        #expect(report.outcome == .swapped)
        #expect(session.current?.count == 3, "v2 restores nothing: built from its route")
        #expect(report.rebuiltFresh.isEmpty, "keeping no state is not a failure")
        #expect(session.current?.text.contains("starts fresh") == false)
        session.add()
        let third = try app.swap(to: ["-DSWAP_VERSION=3"])
        #expect(third.outcome == .swapped)
        #expect(session.current?.count == 3, "v2 saves no state, so v3 starts from the route")
        #expect(third.rebuiltFresh.isEmpty)
    }
}
