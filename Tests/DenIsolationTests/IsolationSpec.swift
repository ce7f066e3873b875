@testable import DenHost
import DenIsolation
import DenKit
import DenSupport
import DenTestSupport
import Foundation
import Testing

/// Isolated modules (docs/ISOLATION.md): the same .so in a worker process of its own, restarted
/// after a crash with its screen's state, quarantined after a crash loop, sandboxed. Real worker
/// processes (`den worker`), real signals; the fault module is Tests/Fixtures/DenFixtureFaults.
@Suite("Isolated modules: worker processes, crashes, restarts, quarantine, sandbox", .serialized)
struct IsolationSpec {
    let folder: PluginFolder
    let log = CapturedLog()

    init() throws {
        folder = try PluginFolder()
        try folder.add("AboutModule")
        try folder.add("DenFixtureFaults")
        _ = try BuildProducts.require(BuildProducts.den)
    }

    func runtime(isolate: Set<String> = ["faults"], sandbox: Bool = true, timeout: Duration = .seconds(30)) -> DenRuntime {
        isolatingRuntime(folder, log: log, isolate: isolate, sandbox: sandbox, timeout: timeout)
    }

    func texts(_ view: SessionView) -> [String] { view.screen.texts }

    func banners(_ view: SessionView) -> [String] { view.screen.bannerTexts }

    func faults(_ runtime: DenRuntime) throws -> IsolatedModule {
        try #require(runtime.workers?.all.first { $0.filePath.hasSuffix("libDenFixtureFaults.so") })
    }

    /// Counts to `count` on a fresh faults screen.
    func counted(_ session: NavigationSession, to count: Int) -> SessionView {
        var view = session.open("faults")
        for _ in 0..<count { view = session.send(action: "count", fields: [:]) }
        return view
    }

    @Test("an isolated Swift module shows exactly the screen it shows in-process")
    func sameScreen() throws {
        let inProcess = runtime(isolate: []).makeSession().open("about")
        let isolatedRuntime = runtime(isolate: ["about"])
        let isolated = isolatedRuntime.makeSession().open("about")
        #expect(isolated.errors.isEmpty, "\(isolated.errors)")
        #expect(isolated.screen.title == inProcess.screen.title)
        #expect(texts(isolated).count == texts(inProcess).count)
        #expect(texts(isolated).first == texts(inProcess).first)
        let about = try #require(isolatedRuntime.registry.plugins.first { $0.id == "about" })
        #expect(about.hosting?.hasPrefix("isolated, pid ") == true, "\(about.hosting ?? "nil")")
    }

    @Test("events, state and service calls cross to the worker and back")
    func events() throws {
        let runtime = runtime()
        let session = runtime.makeSession()
        #expect(texts(counted(session, to: 3)).first == "count 3")
        let logged = session.send(action: "log", fields: [:])
        #expect(texts(logged).contains("probe: log: status 0"))
        #expect(log.lines.contains { $0.message.contains("faults says hello") })
        #expect(try faults(runtime).status.pid != nil)
    }

    @Test("a crash in a call: the call errors, den stays up, the worker restarts and the screen keeps its state", arguments: [
        ("segv", "SIGSEGV"), ("abort", "SIGABRT"), ("trap", "SIGILL"), ("oom", "SIGSEGV"), ("garbage", "not a worker frame"),
        ("close", "closed its socket"),
    ])
    func crash(action: String, expected: String) throws {
        let runtime = runtime()
        let session = runtime.makeSession()
        _ = counted(session, to: 3)
        let firstPID = try faults(runtime).status.pid
        let crashed = session.send(action: action, fields: [:])
        let error = try #require(crashed.errors.first, "the crash must be reported")
        #expect(error.contains("crashed while handling the event"), "\(error)")
        #expect(error.contains(expected), "\(error)")
        #expect(error.contains("restored this screen from its last snapshot"), "\(error)")
        let status = try faults(runtime).status
        #expect(status.restarts == 1)
        #expect(status.pid != nil && status.pid != firstPID)
        #expect(texts(session.send(action: "count", fields: [:])).first == "count 4", "the state before the crash, plus one")
        // Other modules keep serving in the same process.
        #expect(runtime.makeSession().open("about").errors.isEmpty)
    }

    @Test("a worker inherits none of den's descriptors: a file den holds open without close-on-exec stays den's")
    func noInheritedDescriptors() throws {
        let secret = folder.temp.path("held-by-den.txt").path
        #expect(FileManager.default.createFile(atPath: secret, contents: Data("den's own".utf8)))
        let held = open(secret, O_RDONLY) // no O_CLOEXEC, as a library might open one
        try #require(held >= 0)
        defer { close(held) }
        let runtime = runtime()
        #expect(runtime.makeSession().open("faults").errors.isEmpty)
        let pid = try #require(try faults(runtime).status.pid)
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
        let targets = descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
        #expect(!targets.isEmpty, "the worker's descriptors were read")
        #expect(!targets.contains(secret), "\(targets)")
    }

    @Test("a call past the call limit errors; the unresponsive worker is killed and restarted with the state")
    func hang() throws {
        let runtime = runtime(timeout: .seconds(2))
        let session = runtime.makeSession()
        _ = counted(session, to: 2)
        let started = ContinuousClock.now
        let hung = session.send(action: "loop", fields: [:])
        #expect(ContinuousClock.now - started < .seconds(4))
        #expect(hung.errors.first?.contains("did not answer within the call limit") == true, "\(hung.errors)")
        // The worker's watch thread starts the next worker as it sees the killed one end, which
        // may come just after the call returns on this thread.
        let restartedBy = ContinuousClock.now + .seconds(20)
        while try faults(runtime).status.restarts == 0, ContinuousClock.now < restartedBy { Thread.sleep(forTimeInterval: 0.01) }
        #expect(try faults(runtime).status.restarts == 1)
        #expect(texts(session.send(action: "count", fields: [:])).first == "count 3")
    }

    @Test("kill -9 of an idle worker from outside: den notices at once, restarts it, and the screen says it was restored")
    func killedFromOutside() throws {
        let runtime = runtime()
        let session = runtime.makeSession()
        _ = counted(session, to: 5)
        let module = try faults(runtime)
        let pid = try #require(module.status.pid)
        kill(pid, SIGKILL)
        let killedAt = ContinuousClock.now
        while module.status.restarts == 0, ContinuousClock.now - killedAt < .seconds(5) { usleep(1000) }
        #expect(module.status.restarts == 1)
        #expect(ContinuousClock.now - killedAt < .seconds(2), "noticed through the pidfd, not on the next call")
        #expect(module.status.lastEnd?.contains("SIGKILL") == true)
        let next = session.send(action: "count", fields: [:])
        #expect(texts(next).first == "count 6")
        #expect(banners(next).contains(InstanceStandIn.restoredNotice))
    }

    @Test("saving a session after an event takes the snapshot that came with the event's answer, without asking the worker")
    func savedWithoutRoundTrip() throws {
        let runtime = runtime(timeout: .seconds(2))
        let session = runtime.makeSession()
        _ = counted(session, to: 3)
        let module = try faults(runtime)
        let pid = try #require(module.status.pid)
        // A stopped worker answers nothing: a request to it would run into the call limit.
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        let started = ContinuousClock.now
        let saved = session.saved()
        #expect(ContinuousClock.now - started < .seconds(1))
        let snapshot = try #require(saved.stack.last?.snapshot.flatMap { Data(base64Encoded: $0) })
        #expect(String(decoding: snapshot, as: UTF8.self) == "3")
        kill(pid, SIGCONT)
        #expect(module.status.restarts == 0 && module.status.pid == pid, "the worker was never asked, so never killed")
        #expect(texts(session.send(action: "count", fields: [:])).first == "count 4")
    }

    @Test("a handled frame whose reply length runs past its body is refused; a well-formed one splits into reply and snapshot")
    func handledBody() {
        let body = HandledBody.make(reply: Data("{\"v\":1}".utf8), state: Data("42".utf8))
        let parts = HandledBody.split(body)
        #expect(parts.map { String(decoding: $0.reply, as: UTF8.self) } == "{\"v\":1}")
        #expect(parts.map { String(decoding: $0.state, as: UTF8.self) } == "42")
        var broken = Data([0xFF, 0x00, 0x00, 0x00])
        broken.append(Data("short".utf8))
        #expect(HandledBody.split(broken) == nil)
        #expect(HandledBody.split(Data([1, 0])) == nil)
    }

    @Test("three crashes within five minutes quarantine the file; its route says so; release lifts it")
    func crashLoop() throws {
        let runtime = runtime()
        let session = runtime.makeSession()
        _ = session.open("faults")
        for _ in 0..<3 { _ = session.send(action: "segv", fields: [:]) }
        let module = try faults(runtime)
        #expect(module.status.quarantine != nil)
        let quarantined = runtime.makeSession().open("faults")
        #expect(banners(quarantined).first?.contains("is quarantined: it crashed 3 times within 5 minutes (last: its worker ended by SIGSEGV)") == true,
                "\(quarantined.screen)")
        #expect(banners(quarantined).first?.contains("den modules release \(module.contentHash.prefix(12))") == true)
        let book = try #require(runtime.workers?.quarantine)
        #expect(book.entries.map(\.hash) == [module.contentHash])
        #expect(book.release(String(module.contentHash.prefix(12))).count == 1)
        #expect(runtime.makeSession().open("faults").errors.isEmpty, "released: tried afresh")
    }

    @Test("an isolated module's exports are called in its worker; a crash in one is an error, not the end of den")
    func exports() throws {
        let runtime = runtime()
        #expect(try runtime.callExport("faults.add", words: ["2", "40"]).get() == .i64(42))
        guard case .failure(let failure) = runtime.callExport("faults.crash", words: []) else {
            Issue.record("a crashing export must fail")
            return
        }
        #expect(failure.message.contains("SIGSEGV"), "\(failure.message)")
        #expect(try runtime.callExport("faults.add", words: ["1", "1"]).get() == .i64(2), "restarted")
    }

    @Test("the sandbox: no network, no /etc/passwd, no fork; den reports the layers that engaged")
    func sandbox() throws {
        let runtime = runtime()
        let session = runtime.makeSession()
        _ = session.open("faults")
        let probed = texts(session.send(action: "probe", fields: [:]))
        #expect(probed.contains { $0.contains("socket: Permission denied") }, "\(probed)")
        let layers = try faults(runtime).status.sandbox
        #expect(layers.contains("no_new_privs") && layers.contains("seccomp"), "\(layers)")
        if layers.contains("landlock") {
            #expect(probed.contains { $0.contains("open /etc/passwd: Permission denied") }, "\(probed)")
        }
        let forked = texts(session.send(action: "fork", fields: [:]))
        #expect(forked.contains { $0.contains("fork: Operation not permitted") }, "\(forked)")
        #expect(try faults(runtime).status.restarts == 0)
    }

    @Test("without the sandbox the module reaches the file system, and what it forks dies with its worker")
    func unsandboxed() throws {
        let runtime = runtime(sandbox: false)
        let session = runtime.makeSession()
        _ = session.open("faults")
        #expect(texts(session.send(action: "probe", fields: [:])).contains { $0.contains("open /etc/passwd: allowed") })
        #expect(try faults(runtime).status.sandbox.isEmpty)
        #expect(texts(session.send(action: "fork", fields: [:])).contains { $0.contains("fork: a child started") })
        _ = session.send(action: "segv", fields: [:])
        #expect(try faults(runtime).status.restarts == 1)
    }
}

@Suite("Hot swap of an isolated module")
struct IsolatedHotSwapSpec {
    @Test("the new version starts in a new worker, the screens keep their state and show the new behaviour")
    func swapIntoNewWorker() throws {
        let app = try SwapTestApp(isolated: true)
        let session = app.runtime.makeSession()
        session.open("swap")
        for _ in 0..<3 { session.add() }
        #expect(session.current?.count == 3)
        let before = try #require(app.runtime.worker(ofModule: "swap")?.pid)
        let report = try app.swap(to: ["-DSWAP_VERSION=2"])
        #expect(report.outcome == .swapped, "\(report)")
        #expect(report.statesKept == 1)
        #expect(session.current?.text.contains("swap v2") == true)
        #expect(session.current?.count == 3)
        let after = try #require(app.runtime.worker(ofModule: "swap")?.pid)
        #expect(after != before)
        #expect(session.add().count == 5, "v2 adds 2")
        // The old version's worker is stopped, not left running beside the new one.
        let deadline = ContinuousClock.now + .seconds(2)
        while kill(before, 0) == 0, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(kill(before, 0) != 0, "the old worker \(before) has ended")
    }
}

@Suite("Rollback of an isolated module after a hot swap")
struct IsolatedRollbackSpec {
    @Test("a new version that crashes soon after its hot swap is replaced by the version before, with the screen's state")
    func crashAfterSwapRollsBack() throws {
        let app = try SwapTestApp(isolated: true)
        let session = app.runtime.makeSession()
        session.open("swap")
        for _ in 0..<3 { session.add() }
        #expect(try app.swap(to: ["-DSWAP_VERSION=2", "-DCRASH_ON_ADD"]).outcome == .swapped)
        #expect(session.current?.text.contains("swap v2") == true)
        let crashed = session.add()
        #expect(crashed.errors.first?.contains("SIGSEGV") == true, "\(crashed.errors)")
        let module = try #require(app.runtime.workers?.module(forFile: app.file.path))
        #expect(module.status.rolledBackTo == "1.0.0")
        #expect(app.record?.hosting?.contains("rolled back to 1.0.0") == true, "\(app.record?.hosting ?? "nil")")
        let next = session.add()
        #expect(next.text.contains("swap v1"), "\(next.text)")
        #expect(next.count == 4, "the state after the last good event, plus v1's one")
    }
}
