@testable import DenHost
import DenIsolation
import DenKit
import DenSupport
import DenTestSupport
import Foundation
import Testing

/// The isolation guarantees (docs/ISOLATION.md) for a module written in Swift on DenKit, as any
/// module author writes one (Tests/SwiftFaultsFixture): its `fatalError`, out-of-range index, nil
/// force-unwrap, endless loop and runaway allocation each end only its worker process.
@Suite("Isolated Swift module: fatalError, bad index, nil unwrap, endless loop, runaway memory", .serialized)
struct SwiftFaultsIsolationSpec {
    let folder: PluginFolder
    let log = CapturedLog()

    init() throws {
        folder = try PluginFolder()
        try folder.add("AboutModule")
        try folder.add("DenFixtureSwiftFaults")
        _ = try BuildProducts.require(BuildProducts.den)
    }

    func runtime(timeout: Duration = .seconds(30)) -> DenRuntime {
        isolatingRuntime(folder, log: log, isolate: ["swift-faults"], timeout: timeout)
    }

    func texts(_ view: SessionView) -> [String] { view.screen.texts }

    func banners(_ view: SessionView) -> [String] { view.screen.bannerTexts }

    func module(_ runtime: DenRuntime) throws -> IsolatedModule {
        try #require(runtime.workers?.all.first { $0.filePath.hasSuffix("libDenFixtureSwiftFaults.so") })
    }

    func counted(_ session: NavigationSession, to count: Int) -> SessionView {
        var view = session.open("swift-faults")
        for _ in 0..<count { view = session.send(action: "count", fields: [:]) }
        return view
    }

    static var trapSignal: String {
        #if arch(arm64)
        "SIGTRAP"
        #else
        "SIGILL"
        #endif
    }

    @Test("a crash in a call: den stays up, the call errors, the worker restarts, every screen of it comes back from its snapshot", arguments: [
        ("fatal", "its worker ended by \(SwiftFaultsIsolationSpec.trapSignal)"), ("index", "its worker ended by \(SwiftFaultsIsolationSpec.trapSignal)"),
        ("unwrap", "its worker ended by \(SwiftFaultsIsolationSpec.trapSignal)"), ("memory", "its worker ended by SIGABRT"),
    ])
    func crash(fault: String, ending: String) throws {
        let runtime = runtime()
        let crashing = runtime.makeSession()
        let bystander = runtime.makeSession()
        #expect(texts(counted(crashing, to: 3)).first == "count 3")
        #expect(texts(counted(bystander, to: 7)).first == "count 7")
        let firstPID = try module(runtime).status.pid

        let crashed = crashing.send(action: fault, fields: [:])
        let error = try #require(crashed.errors.first, "the crash must be reported")
        #expect(error.contains("crashed while handling the event (\(ending)"), "\(error)")
        #expect(error.contains("den restarted it and restored this screen from its last snapshot"), "\(error)")
        let status = try module(runtime).status
        #expect(status.restarts == 1)
        #expect(status.pid != nil && status.pid != firstPID)

        #expect(texts(crashing.send(action: "count", fields: [:])).first == "count 4", "the state before the crash, plus one")
        // The other screen lived in the same worker: it comes back too, and says so.
        let next = bystander.send(action: "count", fields: [:])
        #expect(texts(next).first == "count 8")
        #expect(banners(next).contains(InstanceStandIn.restoredNotice), "\(banners(next))")
        #expect(runtime.makeSession().open("about").errors.isEmpty, "other modules keep serving")
    }

    @Test("an endless loop is stopped inside the call limit: the worker is killed and restarted with the state")
    func endlessLoop() throws {
        let limit = Duration.seconds(2)
        let runtime = runtime(timeout: limit)
        let session = runtime.makeSession()
        _ = counted(session, to: 2)
        let started = ContinuousClock.now
        let hung = session.send(action: "loop", fields: [:])
        let took = ContinuousClock.now - started
        #expect(took < limit, "answered within the call limit: \(took)")
        #expect(hung.errors.first?.contains("crashed while handling the event (it did not answer within the call limit") == true, "\(hung.errors)")
        // The call answers once the end is counted; the next one finds the restarted worker.
        #expect(texts(session.send(action: "count", fields: [:])).first == "count 3")
        let status = try module(runtime).status
        #expect(status.restarts == 1)
        #expect(status.lastEnd?.contains("SIGKILL") == true, "\(status.lastEnd ?? "nil")")
        #expect(runtime.makeSession().open("about").errors.isEmpty)
    }

    @Test("after a crash, a snapshot the module refuses is not called restored: the screen says it was opened afresh")
    func refusedAfterCrash() throws {
        let runtime = runtime()
        let session = runtime.makeSession()
        _ = counted(session, to: 2)
        _ = session.send(action: "poison", fields: [:])
        let crashed = session.send(action: "fatal", fields: [:])
        let error = try #require(crashed.errors.first)
        #expect(error.contains("den restarted it, but this screen could not keep its state and was opened afresh"), "\(error)")
        #expect(!error.contains("restored this screen"), "\(error)")
        #expect(texts(session.send(action: "count", fields: [:])).first == "count 1")
    }

    @Test("a snapshot whose restore crashes the worker is dropped: the screen opens afresh once, with no crash loop")
    func restoreCrash() throws {
        let runtime = runtime()
        let session = runtime.makeSession()
        _ = counted(session, to: 2)
        _ = session.send(action: "poison-restore", fields: [:])
        let crashed = session.send(action: "fatal", fields: [:])
        let error = try #require(crashed.errors.first)
        #expect(error.contains("could not keep its state and was opened afresh"), "\(error)")
        for expected in 1...3 {
            #expect(texts(session.send(action: "count", fields: [:])).first == "count \(expected)")
        }
        let status = try module(runtime).status
        #expect(status.quarantine == nil, "the fatal and the restore: two crashes, then none")
        #expect(status.restarts == 2, "\(status.restarts)")
        #expect(log.lines.contains { $0.level == .warning && $0.message.contains("module 'swift-faults': its worker ended by") && $0.message.contains("crash 1 of 3") }, "\(log.lines.map(\.message))")
    }

    @Test("three crashes within five minutes quarantine the Swift module; its route says so; other modules serve")
    func crashLoop() throws {
        let runtime = runtime()
        let session = runtime.makeSession()
        _ = counted(session, to: 1)
        for fault in ["fatal", "index", "unwrap"] { _ = session.send(action: fault, fields: [:]) }
        let module = try module(runtime)
        #expect(module.status.quarantine != nil)
        let quarantined = runtime.makeSession().open("swift-faults")
        #expect(banners(quarantined).first?.contains("is quarantined: it crashed 3 times within 5 minutes (last: its worker ended by \(Self.trapSignal))") == true,
                "\(quarantined.screen)")
        #expect(runtime.makeSession().open("about").errors.isEmpty)
    }
}
