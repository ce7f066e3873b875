import DenRouting
import DenKit
import FoundationEssentials
import Logging

/// One UI session's navigation: a stack of screens, each backed by a live module instance. The
/// front-end turns user input into `open`, `back`, `replace` and `send`; effects in a module's
/// reply (`navigate`, `back`, `replace`, `open_url`) drive the same operations. Thread-safe.
///
/// Guarded routes (`RouteGuard`): whatever opens a route — `open`, `replace`, an effect — goes
/// through the guard, which sends a logged-out user to the login route without calling the
/// guarded builder. A guarded screen remembers the user it was built for and is only ever shown
/// to, or sent events for, that user: once the session's user is someone else (or nobody), the
/// screen is dropped and its route opened again through the guard the moment it would be
/// shown or used — on `back`, on an action, or at the end of the step that changed the user.
///
/// Steps run one at a time (the session's turn), each on a copy of the committed state that it
/// commits at its end; no lock is held while a module runs, so `current` and `liveInstances`
/// answer at once even while a step waits for a module.
public final class NavigationSession: @unchecked Sendable {
    /// How many navigations one step may chain before the host stops a redirect loop.
    static let maxChainedEffects = 16

    struct Entry {
        var route: String
        var moduleID: String?
        var instance: ModuleInstanceHandle?
        var screen: Screen
        /// For a guarded route's instance: the user it was built for (never nil then).
        var guardedFor: String?
    }

    /// What one step works on: a copy of the committed state, changed without any lock while
    /// the step calls modules, and committed at its end (`commit`). The committed copy is what
    /// readers (`current`, `liveInstances`) see.
    struct StepState {
        var stack: [Entry] = []
        var openedURLs: [String] = []
        var notices: [String] = []
        var errors: [String] = []
        /// Set when a step used up its navigation budget: the step is then undone.
        var overflowed = false
        /// Navigations this step may still chain.
        var budget = NavigationSession.maxChainedEffects
    }

    let registry: ModuleRegistry
    let runner: ModuleCallRunner
    let logger: Logger?
    /// A front-end interrupts the module call in progress through this (the terminal's Ctrl-C).
    public let interruption: CallInterruption
    /// This session's identity for the `session` and `auth` services (`CallContext`).
    public let id: UISessionID
    /// Where this session's values live; they are forgotten when the session ends.
    private let sessions: SessionStore?
    /// Guards `committed` alone, and is never held across a module call: reading the screen on
    /// top never waits for a module.
    private let lock = Lock()
    private var committed = StepState()
    /// The turn: one step (or hot swap) at a time works on the session, from its copy of the
    /// committed state to its commit. A one-permit semaphore; readers never take it.
    private let turn = ThreadSignal()

    /// - Parameters:
    ///   - policy: how long a module call may run before the host gives up on it.
    ///   - placement: where module calls run (a thread each, or this thread for a one-shot command).
    ///   - onSlowCall: told when a call has run past `policy.slowNotice` (say what we wait for).
    ///   - interruption: how a front-end interrupts calls (default: only through `interrupt()`).
    public init(registry: ModuleRegistry, policy: ModuleCallPolicy = .default, placement: CallPlacement = .ownThread, logger: Logger? = nil,
                interruption: CallInterruption = CallInterruption(),
                onSlowCall: (@Sendable (ModuleCall, Duration) -> Void)? = nil, sessions: SessionStore? = nil) {
        self.registry = registry
        self.logger = logger
        self.interruption = interruption
        self.sessions = sessions
        let id = sessions?.makeSessionID() ?? UISessionID(UInt64.random(in: 1 << 32 ... .max))
        self.id = id
        self.runner = ModuleCallRunner(policy: policy, placement: placement, interruption: interruption, session: id) { call, elapsed in
            // A notice, not a warning: the front-end tells the user itself (onSlowCall).
            logger?.notice("\(call) has been running for \(ModuleCallRunner.format(elapsed))", metadata: ["module": "\(call.moduleID)"])
            onSlowCall?(call, elapsed)
        }
        turn.signal() // the one permit
        // A hot swap reaches every live instance through this list (HotSwap/).
        registry.liveSessions.add(self)
    }

    deinit {
        sessions?.end(id)
    }

    /// The top of the stack, or nil before the first `open`.
    public var current: SessionView? {
        lock.withLock { committed.stack.isEmpty ? nil : Self.view(of: committed) }
    }

    /// Waits for the session's turn (steps run one at a time), runs `body`, gives the turn back.
    func withTurn<T>(_ body: () throws -> T) rethrows -> T {
        takeTurn()
        defer { releaseTurn() }
        return try body()
    }

    /// Waits until no step or swap works on the session; pair with `releaseTurn`.
    func takeTurn() {
        turn.wait()
    }

    func releaseTurn() {
        turn.signal()
    }

    /// The committed state; with the turn held, what the next step starts from.
    func committedState() -> StepState {
        lock.withLock { committed }
    }

    /// Makes `state` the committed state (with the turn held) and returns its view. The state
    /// it replaces is released after the lock: an instance only it held is destroyed outside it.
    @discardableResult
    func commit(_ state: StepState) -> SessionView {
        var replaced = state
        let view = lock.withLock {
            swap(&committed, &replaced)
            return Self.view(of: committed)
        }
        withExtendedLifetime(replaced) {}
        return view
    }

    /// Pushes the screen for `route`; the view it returns is also `current`.
    @discardableResult
    public func open(_ route: String) -> SessionView {
        step { _ = push(route, &$0) }
    }

    /// Replaces the top screen with the one for `route`.
    public func replace(_ route: String) -> SessionView {
        step { _ = replaceTop(route, &$0) }
    }

    /// Pops the top screen; at the bottom of the stack nothing changes.
    public func back() -> SessionView {
        step { pop(&$0) }
    }

    /// Sends an action (a button's id and the form's values) to the top screen's module.
    public func send(action: String, fields: [String: String]) -> SessionView {
        step { dispatch(.action(id: action, fields: fields), &$0) }
    }

    /// Tells the top screen's module that field `field` changed (sent only for fields whose
    /// element asked for it with `changes`); the reply is shown like an action's.
    public func send(change field: String, fields: [String: String]) -> SessionView {
        let change = FieldChange(field: field, fields: fields)
        return step { state in dispatch(&state) { (instance, runner) throws(ModuleCallError) in try instance.handle(change, runner: runner) } }
    }

    /// Runs one user step. A step that chains more navigations than the budget allows (a module
    /// that navigates on every appear) is undone, so the user is never trapped in the loop.
    private func step(_ body: (inout StepState) -> Void) -> SessionView {
        withTurn {
            // The step works on a copy; readers see the committed state until it ends.
            var state = committedState()
            state.openedURLs = []
            state.notices = []
            state.errors = []
            state.overflowed = false
            state.budget = NavigationSession.maxChainedEffects
            let saved = state.stack
            body(&state)
            // The step may have changed the user (a module logged out): a guarded screen left
            // on top must not show the previous user's data.
            if !state.overflowed, let top = state.stack.last, isStale(top) { reopenThroughGuard(&state) }
            if state.overflowed {
                // Keep the screen the user asked for when there was nothing before it.
                state.stack = saved.isEmpty ? Array(state.stack.prefix(1)) : saved
                state.openedURLs = []
                let message = "more than \(NavigationSession.maxChainedEffects) navigations were chained in one step (a redirect loop?); the host stopped them and stayed here"
                state.errors.append(message)
                if let top = state.stack.indices.last {
                    // Undoing the step does not undo a logout: hide a screen built for that user.
                    if isStale(state.stack[top]) {
                        state.stack[top] = Entry(route: state.stack[top].route, moduleID: state.stack[top].moduleID, instance: nil,
                                                 screen: HostScreens.userChanged(state.stack[top].route))
                    }
                    state.stack[top].screen = HostScreens.withError(state.stack[top].screen, message)
                }
            }
            return commit(state)
        }
    }

    private static func view(of state: StepState) -> SessionView {
        guard let top = state.stack.last else {
            return SessionView(route: "", screen: Screen(title: "Den", elements: [.text("Nothing is open yet.")]),
                               moduleID: nil, backStack: [], openURLs: state.openedURLs, notices: state.notices, errors: state.errors,
                               isHostScreen: true)
        }
        return SessionView(route: top.route, screen: top.screen, moduleID: top.moduleID,
                           backStack: state.stack.dropLast().map(\.route), openURLs: state.openedURLs, notices: state.notices,
                           errors: state.errors, isHostScreen: top.instance == nil)
    }

    private func push(_ route: String, _ state: inout StepState) -> Bool {
        show(route, replacingTop: false, &state)
    }

    private func replaceTop(_ route: String, _ state: inout StepState) -> Bool {
        show(route, replacingTop: true, &state)
    }

    /// Builds the screen for `route` first, then puts it on the stack. When the host gave up on
    /// the builder, the user stays on the screen they were on (nothing is replaced), and the
    /// banner says what happened.
    private func show(_ route: String, replacingTop: Bool, _ state: inout StepState) -> Bool {
        let (entry, stall) = makeEntry(route, &state)
        if let stall, !state.stack.isEmpty {
            reportStall(stall, &state)
            return false
        }
        // A host screen ("Not found", "Cannot open") is shown but never becomes a back-stack
        // entry: whatever is opened next takes its place.
        if replacingTop || state.stack.last?.instance == nil, !state.stack.isEmpty { state.stack.removeLast() }
        state.stack.append(entry)
        if let stall {
            reportStall(stall, &state)
            return true
        }
        dispatch(.appear, &state)
        return true
    }

    private func pop(_ state: inout StepState) {
        guard state.stack.count > 1 else {
            state.notices.append("This is the first screen: there is nothing to go back to.")
            return
        }
        state.stack.removeLast()
        // The screen below may show data the popped one changed (e.g. after a login).
        dispatch(.appear, &state)
    }

    /// The session's logged-in user (session key `user`); nobody without a session store.
    private var currentUser: String? {
        sessions?.user(of: id)
    }

    /// A guarded screen built for someone other than the session's user now.
    private func isStale(_ entry: Entry) -> Bool {
        entry.instance != nil && entry.guardedFor != nil && entry.guardedFor != currentUser
    }

    /// Drops the stale guarded screen on top (destroying its instance) and opens its route
    /// again through the guard: for nobody that is the login route, for another user a fresh
    /// instance.
    private func reopenThroughGuard(_ state: inout StepState) {
        let stale = state.stack.removeLast()
        logger?.debug("\(stale.route) was built for another user; reopening it through the guard",
                      metadata: ["module": "\(stale.moduleID ?? "?")"])
        _ = show(stale.route, replacingTop: false, &state)
    }

    /// Builds the instance for a route, or a host screen saying why there is none; a builder the
    /// host gave up on is returned as `stall` too. A guarded route goes through `RouteGuard`
    /// first, so its builder never runs while nobody is logged in.
    private func makeEntry(_ route: String, _ state: inout StepState) -> (Entry, stall: ModuleCallError?) {
        switch registry.resolve(route) {
        case .failure(let error):
            logger?.debug("no module serves \(route): \(error)")
            return (Entry(route: route, moduleID: nil, instance: nil, screen: HostScreens.notFound(error, routes: registry.routes)), nil)
        case .success(let match):
            let user = currentUser
            switch RouteGuard.decide(route, match, user: user, resolve: registry.resolve) {
            case .open:
                return build(route, match, guardedFor: match.value.requiresLogin ? user : nil)
            case .login(let login, let loginMatch, let notice):
                logger?.debug("\(route) needs a logged-in user; opening \(login) instead")
                state.notices.append(notice)
                return build(login, loginMatch, guardedFor: nil)
            case .refused(let screen):
                logger?.notice("cannot open \(route): it needs a logged-in user and the login route cannot be shown",
                                metadata: ["module": "\(match.value.moduleID)"])
                return (Entry(route: route, moduleID: match.value.moduleID, instance: nil, screen: screen), nil)
            }
        }
    }

    /// Calls the builder of a resolved route.
    private func build(_ route: String, _ match: RouteMatch<RouteTarget>, guardedFor: String?) -> (Entry, stall: ModuleCallError?) {
        let request = BuildRequest(route: route, pattern: match.pattern, parameters: match.parameters, query: match.query,
                                   queryValues: match.queryValues)
        do {
            let started = ContinuousClock.now // `--log-level debug` shows build timings
            let instance = try ModuleInstanceHandle.build(match.value, request: request, runner: runner)
            logger?.debug("built \(route) (module \(match.value.moduleID)) in \(PluginLoadTiming.format(ContinuousClock.now - started))")
            return (Entry(route: route, moduleID: match.value.moduleID, instance: instance,
                          screen: Screen(title: route, elements: []), guardedFor: guardedFor), nil)
        } catch {
            return (Entry(route: route, moduleID: match.value.moduleID, instance: nil,
                          screen: HostScreens.failed(route, error)), error.isStall ? error : nil)
        }
    }

    /// Says that the host gave up on a module call: in the step's errors, the log, and a banner
    /// on the screen now on top.
    private func reportStall(_ error: ModuleCallError, _ state: inout StepState) {
        state.errors.append(error.description)
        logger?.error("\(error.description)", metadata: ["module": "\(error.moduleID)"])
        if let top = state.stack.indices.last {
            state.stack[top].screen = HostScreens.withError(state.stack[top].screen, error.description)
        }
    }

    /// Sends an event to the top instance, shows its reply and applies its effects.
    func dispatch(_ event: ModuleEvent, _ state: inout StepState) {
        dispatch(&state, isAppear: event == .appear) { (instance, runner) throws(ModuleCallError) in
            try instance.handle(event, runner: runner)
        }
    }

    /// Sends one document (`send`) to the top instance, shows its reply and applies its effects.
    private func dispatch(_ state: inout StepState, isAppear: Bool = false,
                          send: (ModuleInstanceHandle, ModuleCallRunner) throws(ModuleCallError) -> ModuleReply) {
        guard !state.overflowed, let top = state.stack.last, let instance = top.instance else { return }
        // No event reaches a guarded instance built for another user: it could act on, or
        // show, that user's data.
        if isStale(top) {
            if !isAppear { state.notices.append("The logged-in user changed since \(top.route) was opened, so it was opened again; your last action was not sent.") }
            reopenThroughGuard(&state)
            return
        }
        let reply: ModuleReply
        do {
            reply = try send(instance, runner)
        } catch where error.isStall {
            // The instance is abandoned: close its screen and go back to a working one. On the
            // first screen there is none below, so the route is built afresh (once: a fresh
            // instance that stalls too leaves a host screen saying so).
            state.stack.removeLast()
            if !state.stack.isEmpty {
                dispatch(.appear, &state)
            } else if isAppear {
                state.stack.append(Entry(route: top.route, moduleID: top.moduleID, instance: nil,
                                         screen: HostScreens.failed(top.route, error)))
            } else {
                _ = show(top.route, replacingTop: false, &state)
            }
            reportStall(error, &state)
            return
        } catch {
            state.errors.append(error.description)
            state.stack[state.stack.count - 1].screen = HostScreens.withError(top.screen, error.description)
            return
        }
        state.stack[state.stack.count - 1].screen = reply.screen
        var refusedURLs: [String] = []
        defer {
            // One banner for every refused URL of this reply, on the screen that sent them.
            if !refusedURLs.isEmpty, let index = state.stack.firstIndex(where: { $0.instance === instance }) {
                state.stack[index].screen = HostScreens.withError(state.stack[index].screen, refusedURLs.joined(separator: "\n"))
            }
        }
        for effect in reply.effects {
            if case .openURL(let url) = effect {
                if let refusal = ExternalURLPolicy.refusal(for: url) {
                    let message = "module '\(top.moduleID ?? "?")' asked to open '\(ModuleText.singleLine(url, limit: 200))'; the host refused: \(refusal)"
                    state.errors.append(message)
                    refusedURLs.append(message)
                    logger?.warning("\(message)", metadata: ["module": "\(top.moduleID ?? "?")"])
                } else {
                    state.openedURLs.append(url)
                }
                continue
            }
            // Only navigations count against the budget.
            guard state.budget > 0 else {
                state.overflowed = true
                return
            }
            state.budget -= 1
            switch effect {
            case .navigate(let route): _ = push(route, &state)
            case .replace(let route): _ = replaceTop(route, &state)
            case .back: pop(&state)
            case .openURL: break
            }
            if state.overflowed { return }
        }
    }
}
