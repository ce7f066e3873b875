@testable import DenHost
import DenHotSwap
import DenKit
import DenTestSupport
import Foundation
import Testing

@Suite("Hot swap rollback: a broken new version is refused whole, the old keeps serving")
struct HotSwapRollbackTests {
    enum Breakage: String, CaseIterable, CustomTestStringConvertible {
        case badABI, entryFails, routeConflict, builderFails, restoreRefusedByPolicy, truncatedMidCopy, otherModule

        var testDescription: String { rawValue }

        var flags: [String] {
            switch self {
            case .badABI: ["-DSWAP_VERSION=3", "-DBAD_ABI"]
            case .entryFails: ["-DSWAP_VERSION=3", "-DENTRY_FAILS"]
            case .routeConflict: ["-DSWAP_VERSION=3", "-DCONFLICT_ROUTE=\"other\""]
            case .builderFails: ["-DSWAP_VERSION=3", "-DBUILD_FAILS"]
            case .restoreRefusedByPolicy: ["-DSWAP_VERSION=3", "-DRESTORE_FAILS"]
            case .truncatedMidCopy: ["-DSWAP_VERSION=3"]
            case .otherModule: ["-DSWAP_VERSION=3", "-DMODULE_ID=\"another\""]
            }
        }

        /// Words the refusal must contain (cause and fix).
        var expected: [String] {
            switch self {
            case .badABI: ["ABI version 99", "rebuild"]
            case .entryFails: ["entry point returned DEN_ERR_", "fix the plugin"]
            case .routeConflict: ["other", "change the pattern"]
            case .builderFails: ["could not build the open screen 'swap/20'", "cannot build any screen"]
            case .restoreRefusedByPolicy: ["could not restore the state of the open screen 'swap/20'"]
            case .truncatedMidCopy: ["truncated", "rebuild the plugin"]
            case .otherModule: ["provides module 'another'", "keep the module id"]
            }
        }
    }

    @Test("v2 serves on after a broken v3", arguments: Breakage.allCases)
    func brokenThirdVersion(_ breakage: Breakage) throws {
        let app = try SwapTestApp(others: ["libOtherModule.so": ["-DMODULE_ID=\"other\""]],
                                  policy: HotSwapPolicy(onRestoreFailure: breakage == .restoreRefusedByPolicy ? .refuseSwap : .rebuildFresh))
        let session = app.runtime.makeSession()
        session.open("swap/20")
        #expect(try app.swap(to: ["-DSWAP_VERSION=2"]).outcome == .swapped)
        session.add()
        #expect(session.current?.count == 22)

        let report: HotSwapReport
        if breakage == .truncatedMidCopy {
            try SwapTestApp.fixture.installTruncated(breakage.flags, into: app.plugins)
            report = app.swapper.swap(app.file)
        } else {
            report = try app.swap(to: breakage.flags)
        }
        let error = try #require(report.error, "expected a refusal, got \(report)")
        #expect(error.description.contains("libSwapModule.so"), "names the file: \(error)")
        #expect(error.description.contains("old version keeps serving"))
        for words in breakage.expected { #expect(error.description.contains(words), "\(error)") }

        // v2 still serves: the same instance, its state, its behaviour; and the routes.
        #expect(session.current?.text.contains("swap v2") == true)
        #expect(session.add().count == 24)
        #expect(app.runtime.makeSession().open("swap").text.contains("swap v2"))
        let record = try #require(app.record)
        #expect(record.version == "2.0.0")
        #expect(record.generation == 2)
        #expect(record.routes == ["swap", "swap/<int:start>"])
        #expect(record.swapError == error.description)
        #expect(record.summaryDocument.swapError == error.description)
        // The other module is untouched.
        #expect(app.runtime.makeSession().open("other").text.contains("swap v1"))

        // A fixed v4 goes in as usual, and clears the error.
        let fixed = try app.swap(to: ["-DSWAP_VERSION=4"])
        #expect(fixed.outcome == .swapped, "\(fixed)")
        #expect(session.current?.count == 24)
        #expect(app.record?.swapError == nil)
        #expect(app.record?.generation == 3)
    }

    @Test("a plugin that failed at start is loaded once its file is fixed")
    func failedAtStartThenFixed() throws {
        let app = try SwapTestApp(["-DBAD_ABI"])
        #expect(app.record == nil)
        #expect(app.runtime.registry.plugins.contains { !$0.isActive && $0.file.lastPathComponent == "libSwapModule.so" })
        let report = try app.swap(to: ["-DSWAP_VERSION=2"])
        #expect(report.outcome == .installed, "\(report)")
        #expect(app.runtime.makeSession().open("swap").text.contains("swap v2"))
        #expect(!app.runtime.registry.plugins.contains { !$0.isActive && $0.file.lastPathComponent == "libSwapModule.so" },
                "the old failure is gone from the list")
    }
}
