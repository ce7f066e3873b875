import DenHost
import DenKit
import DenTestSupport
import Foundation
import Synchronization
import Testing

/// A C module (Tests/Fixtures/DenFixtureRuleBreaker) that breaks the ABI's rules the way outside
/// authors did. Each rule the host can check cheaply is enforced with a message naming the module
/// and the rule; nothing crashes or hangs the host.
@Suite("Modules that break the ABI's rules")
struct RuleBreakingModuleTests {
    let folder: PluginFolder
    let log = CapturedLog()

    init() throws {
        folder = try PluginFolder()
        try folder.add("AboutModule")
        try folder.add("DenFixtureRuleBreaker")
    }

    func runtime(timeout: Duration = .seconds(30), slowNotice: Duration = .seconds(2)) -> DenRuntime {
        var configuration = HostConfiguration(pluginDirectories: [folder.plugins], bundledDirectory: nil,
                                              cacheDirectory: folder.temp.path("cache"), dataDirectory: folder.temp.path("data"))
        configuration.callPolicy = ModuleCallPolicy(timeout: timeout, slowNotice: slowNotice)
        let runtime = DenRuntime(configuration: configuration, logger: log.logger)
        runtime.loadPlugins()
        return runtime
    }

    func texts(_ view: SessionView) -> [String] {
        view.screen.elements.compactMap { if case .text(let text, _) = $0 { text } else { nil } }
    }

    func errorBanners(_ view: SessionView) -> [String] {
        view.screen.elements.compactMap { if case .banner(let banner) = $0, banner.kind == .error { banner.text } else { nil } }
    }

    // MARK: registrar

    @Test("a registrar kept past den_module_entry answers DEN_ERR_INVALID_ARGUMENT and is logged with the module id")
    func lateRegistrar() throws {
        let runtime = runtime()
        let view = runtime.makeSession().open("late-registrar")
        #expect(texts(view) == ["late calls answered 1 1 1"])
        #expect((try? runtime.registry.resolve("late").get()) == nil, "a late route must not be installed")
        let late = log.lines.filter { $0.message.contains("after den_module_entry returned") }
        #expect(late.count == 3)
        #expect(late.allSatisfy { $0.module == "rule-breaker" && $0.message.contains("module 'rule-breaker'") })
        #expect(late.map(\.message).contains { $0.contains("called add_route") })
        #expect(late.map(\.message).contains { $0.contains("called describe") })
    }

    // MARK: limits

    @Test("a 50 MB reply is refused by size before it is parsed, naming the limit")
    func hugeReply() {
        let view = runtime().makeSession().open("huge-reply")
        #expect(view.errors.count == 1)
        // Said as what the module did, not as a status the module returned ("rejected the input").
        #expect(view.errors.first?.hasPrefix("module 'rule-breaker' sent a reply of 50 MiB") == true, "\(view.errors)")
        #expect(view.errors.first?.contains("replies are limited to 4 MiB") == true, "\(view.errors)")
    }

    @Test("a valid reply nested 600 levels deep is refused as too deep, not as invalid JSON")
    func deepReply() {
        let view = runtime().makeSession().open("deep-reply")
        #expect(view.errors.first?.contains("nested more than 64 levels deep") == true, "\(view.errors)")
        #expect(view.errors.first?.contains("cannot read") == false)
    }

    @Test("the reply's document version is checked like the screen's", arguments: [
        ("future-reply", "sent reply document version 999; this host reads version 1"),
        ("unversioned-reply", "missing key 'v'"),
    ])
    func replyVersion(route: String, expected: String) {
        let view = runtime().makeSession().open(route)
        #expect(view.errors.count == 1)
        #expect(view.errors.first?.contains(expected) == true, "\(view.errors)")
    }

    @Test("a builder's broken instance table is refused with what was wrong, as the host's finding", arguments: [
        ("no-instance", "module 'rule-breaker' reported success from its builder but returned no instance (set *self and *api on DEN_OK)"),
        ("old-table", "module 'rule-breaker' returned an instance API table whose struct_size (8) is below revision 0's 40 bytes"),
        ("no-handle", "module 'rule-breaker' returned an instance API table without a handle or destroy function (both are required)"),
    ])
    func brokenInstanceTable(route: String, expected: String) {
        let session = runtime().makeSession()
        let view = session.open(route)
        #expect(view.isHostScreen)
        #expect(errorBanners(view).contains { $0.contains(expected) }, "\(errorBanners(view))")
        #expect(session.replace("about").route == "about", "the host goes on")
    }

    @Test("an error message of 100 KB is cut to 4 KiB with a note saying so")
    func longError() throws {
        let session = runtime().makeSession()
        _ = session.open("long-error")
        let error = try #require(session.current?.errors.first)
        #expect(error.contains("first words of a long error"))
        #expect(error.contains("more bytes cut: error messages are limited to 4 KiB"))
        #expect(error.utf8.count < 4096 + 300)
    }

    @Test("a service request over 4 MiB is refused before any service parses it")
    func hugeServiceRequest() {
        let view = runtime().makeSession().open("huge-request")
        #expect(texts(view).first?.hasPrefix("status 1: storage.set: the request is 5 MiB; service requests are limited to 4 MiB") == true, "\(texts(view))")
    }

    @Test("a service request nested too deeply is refused as such")
    func deepServiceRequest() {
        let view = runtime().makeSession().open("deep-request")
        #expect(texts(view).first?.hasPrefix("status 1: storage.get: the request is nested more than 64 levels deep") == true, "\(texts(view))")
    }

    // MARK: effects and text

    @Test("open_url with a javascript: URL is refused with a banner naming the module; an https URL passes")
    func javascriptURL() {
        let view = runtime().makeSession().open("javascript-url")
        #expect(view.openURLs == ["https://example.org/ok"])
        #expect(view.errors.count == 1)
        #expect(view.errors.first?.contains("module 'rule-breaker' asked to open 'javascript:alert(1)'") == true)
        #expect(view.errors.first?.contains("scheme 'javascript' is not allowed") == true)
        #expect(errorBanners(view) == view.errors)
    }

    @Test("a log message cannot forge log lines or send escape sequences")
    func forgedLog() throws {
        _ = runtime().makeSession().open("forged-log")
        let lines = log.lines.filter { $0.module == "rule-breaker" && $0.message.contains("real line") }
        try #require(lines.count == 1)
        let message = lines[0].message
        #expect(!message.contains("\n"))
        #expect(!message.contains("\u{1B}"))
        #expect(message == "real line^J2026-01-01T00:00:00 error den : forged line^[[2J")
    }

    // MARK: calls that never return

    /// A session whose steps run on a lane of their own, as a front-end runs them: a call the
    /// watchdog gives up leaves the lane's thread in the module, and the view comes back here.
    func lane(timeout: Duration, slowNotice: Duration = .seconds(2), interruption: CallInterruption = CallInterruption(),
              onSlowCall: (@Sendable (ModuleCall, Duration) -> Void)? = nil) throws -> SessionLane {
        try SessionLane(runtime: runtime(timeout: timeout, slowNotice: slowNotice), interruption: interruption, onSlowCall: onSlowCall)
    }

    @Test("a handle() that never returns is given up after the call limit: the user is back on the previous screen")
    func hangingAppear() throws {
        let session = try lane(timeout: Self.hangLimit)
        _ = session.open("about")
        let view = session.open("hangs")
        #expect(view.route == "about")
        #expect(view.backStack.isEmpty)
        #expect(view.errors.first?.contains("module 'rule-breaker' did not return from handle(appear) within") == true, "\(view.errors)")
        #expect(errorBanners(view).count == 1)
        #expect(log.lines.contains { $0.level == .error && $0.message.contains("did not return from handle(appear)") })
        // The host still works.
        #expect(session.send(action: "close", fields: [:]).errors.isEmpty)
    }

    @Test("an action that never returns closes that screen; the instance is never called again")
    func hangingAction() throws {
        let session = try lane(timeout: Self.hangLimit)
        _ = session.open("about")
        #expect(session.open("hangs-on-tap").errors.isEmpty)
        let view = session.send(action: "tap", fields: [:])
        #expect(view.route == "about")
        #expect(view.errors.first?.contains("did not return from handle(action 'tap')") == true, "\(view.errors)")
        // Opening the route again builds a new, working instance.
        #expect(session.open("hangs-on-tap").errors.isEmpty)
    }

    @Test("a stalled first screen is replaced by a host screen that says what happened")
    func hangingFirstScreen() throws {
        let session = try lane(timeout: Self.hangLimit)
        let view = session.open("hangs")
        #expect(view.isHostScreen)
        #expect(view.screen.title == "Cannot open hangs")
        #expect(errorBanners(view).contains { $0.contains("did not return from handle(appear)") })
        #expect(session.replace("about").route == "about")
    }

    @Test("an action that never returns on the first screen: that screen is built afresh, with the banner")
    func hangingActionFirstScreen() throws {
        let session = try lane(timeout: Self.hangLimit)
        _ = session.open("hangs-on-tap")
        let view = session.send(action: "tap", fields: [:])
        #expect(view.route == "hangs-on-tap")
        #expect(!view.isHostScreen, "a fresh instance serves the screen again")
        #expect(errorBanners(view).contains { $0.contains("did not return from handle(action 'tap')") })
        #expect(session.send(action: "tap", fields: [:]).errors.first?.contains("did not return") == true,
                "the fresh instance is a real one: its tap hangs too")
    }

    @Test("a builder that never returns is given up; later builds of that module fail at once, other modules work")
    func hangingBuilder() throws {
        let session = try lane(timeout: Self.hangLimit)
        _ = session.open("about")
        let first = session.open("build-hangs")
        #expect(first.route == "about")
        #expect(first.errors.first?.contains("did not return from the builder of route 'build-hangs'") == true, "\(first.errors)")
        #expect(first.errors.first?.contains("this module's screens open again once it returns") == true, "a builder has no instance to give up")
        #expect(first.errors.first?.contains("this instance") == false)
        // No second thread queues behind the stuck one: the next build is refused at once.
        let second = session.open("late-registrar")
        #expect(second.isHostScreen)
        #expect(errorBanners(second).contains { $0.contains("cannot build now: the builder of route 'build-hangs' has not returned yet") },
                "\(second.screen)")
        #expect(session.open("about").errors.isEmpty)
    }

    @Test("a builder that never returns on the first screen: a host screen says so, and the log names module and call")
    func hangingBuilderFirstScreen() throws {
        let session = try lane(timeout: Self.hangLimit)
        let view = session.open("build-hangs")
        #expect(view.isHostScreen)
        #expect(view.errors.first?.contains("did not return from the builder of route 'build-hangs'") == true, "\(view.errors)")
        #expect(log.lines.contains { $0.level == .error && $0.message.contains("the builder of route 'build-hangs'") })
    }

    @Test("replacing a screen with one whose builder never returns keeps the screen the user had")
    func hangingBuilderOnReplace() throws {
        let session = try lane(timeout: Self.hangLimit)
        _ = session.open("about")
        let view = session.replace("build-hangs")
        #expect(view.route == "about")
        #expect(view.screen.title == "About Den")
        #expect(view.errors.first?.contains("did not return from the builder") == true, "\(view.errors)")
    }

    @Test("an interrupt (the terminal's Ctrl-C) gives up the call at once, long before the limit")
    func interrupt() throws {
        // Interrupted from the slow-call notice, so the interrupt comes while the call is
        // running however slow the machine is (an interrupt before a call is not for it).
        let interruption = CallInterruption()
        let session = try lane(timeout: .seconds(600), slowNotice: .milliseconds(50), interruption: interruption) { call, _ in
            if call == Self.hangingAppear { interruption.interrupt() }
        }
        _ = session.open("about")
        let view = session.open("hangs")
        #expect(view.route == "about")
        #expect(view.errors.first?.contains("was interrupted in handle(appear) after") == true, "\(view.errors)")
    }

    @Test("a slow call is announced to the front-end once, naming the module and the call")
    func slowNotice() throws {
        let heard = Mutex<[String]>([])
        let interruption = CallInterruption()
        let session = try lane(timeout: .seconds(600), slowNotice: .milliseconds(100), interruption: interruption) { call, _ in
            heard.withLock { $0.append(call.description) }
            if call == Self.hangingAppear { interruption.interrupt() }
        }
        _ = session.open("hangs")
        // Only the hanging call is certain to be slow; on a busy machine others may be too.
        #expect(heard.withLock { $0 }.filter { $0 == Self.hangingAppear.description } == ["module 'rule-breaker': handle(appear)"])
    }

    static let hangingAppear = ModuleCall(moduleID: "rule-breaker", what: "handle(appear)")
    /// Long enough that no call that returns is given up on a busy machine; the hanging ones
    /// never return, so only the test's length depends on it.
    static let hangLimit: Duration = .seconds(2)
}
