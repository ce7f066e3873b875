import DenRouting
import DenKit
import DenSupport
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

    package struct Entry {
        var route: String
        var moduleID: String?
        var instance: ModuleInstanceHandle?
        var screen: Screen
        /// For a guarded route's instance: the user it was built for (never nil then).
        var guardedFor: String?
        /// For a host screen drawn because the module's builder failed: what it reported.
        var failure: ModuleCallError?
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
        /// The step's turn (`takeTurn`); it commits only while it holds it.
        var stepID: UInt64 = 0
        /// The stack the step started from (what a step over its budget goes back to).
        var undo: [Entry] = []
        /// Nobody recovers this step should a call of it be given up (a hot swap): its calls
        /// tell no hand-off, and the step goes on once the call returns.
        var unrecovered = false
        /// The step's call was given up and the recovery took its turn (`takeStalledStep`):
        /// it calls no module and commits nothing more.
        var abandoned = false
    }

    /// Where a step stood when it called a module, in a session with a hand-off: should the
    /// watchdog give the call up, `takeStalledStep` finishes the step from here on another
    /// thread, the way the step itself goes on after a stall when nobody recovers it.
    fileprivate struct PendingCall {
        enum Resume {
            /// A builder of `route` (of module `moduleID`), called by `show`.
            case build(route: String, moduleID: String)
            /// `handle` of the top screen `top`.
            case handle(top: Entry, isAppear: Bool)
        }

        var state: StepState
        var resume: Resume
        /// The call's number (`CallHandOff.number()`).
        var number: UInt64
    }

    let registry: ModuleRegistry
    let runner: ModuleCallRunner
    let logger: Logger?
    /// A front-end interrupts the module call in progress through this (the terminal's Ctrl-C).
    package let interruption: CallInterruption
    /// This session's identity for the `session` and `auth` services (`CallContext`).
    package let id: UISessionID
    /// Where this session's values live; they are forgotten when the session ends.
    private let sessions: SessionStore?
    /// The app's name for the shell (`AppSettingDefinitions`), asked when a shell is drawn.
    private let appName: @Sendable () -> String
    /// Guards `committed` alone, and is never held across a module call: reading the screen on
    /// top never waits for a module.
    private let lock = Lock()
    private var committed = StepState()
    /// The turn: one step (or hot swap) at a time works on the session, from its copy of the
    /// committed state to its commit. A one-permit semaphore; readers never take it.
    private let turn = ThreadSignal()
    /// Who holds the turn (a step's id, 0 for nobody) and the last id given; under `lock`. The
    /// turn passes from a step stuck in a given-up call to its recovery without a release.
    private var turnOwner: UInt64 = 0
    private var lastTurn: UInt64 = 0
    /// The call in progress of a session with a hand-off, if any; under `lock`.
    private var pending: PendingCall?

    /// - Parameters:
    ///   - policy: how long a module call may run before the host gives up on it.
    ///   - handOff: who hears of a call given up and recovers the session (its front-end); nil
    ///     when the caller waits for a stuck call to return and goes on from there.
    ///   - onSlowCall: told when a call has run past `policy.slowNotice` (say what we wait for).
    ///   - interruption: how a front-end interrupts calls (default: only through `interrupt()`).
    package init(registry: ModuleRegistry, policy: ModuleCallPolicy = .default, handOff: CallHandOff? = nil, logger: Logger? = nil,
                interruption: CallInterruption = CallInterruption(),
                onSlowCall: (@Sendable (ModuleCall, Duration) -> Void)? = nil, sessions: SessionStore? = nil,
                callObserver: (any ModuleCallObserver)? = nil,
                appName: @escaping @Sendable () -> String = { AppSettingDefinitions.name.defaultValue }) {
        self.registry = registry
        self.appName = appName
        self.logger = logger
        self.interruption = interruption
        self.sessions = sessions
        let id = sessions?.makeSessionID() ?? UISessionID(UInt64.random(in: 1 << 32 ... .max))
        self.id = id
        self.runner = ModuleCallRunner(policy: policy, handOff: handOff, interruption: interruption, session: id,
                                       observer: callObserver) { call, elapsed in
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

    /// Waits until no step or swap works on the session and returns the turn's id; pair with
    /// `releaseTurn`.
    package func takeTurn() -> UInt64 {
        turn.wait()
        return lock.withLock {
            lastTurn += 1
            turnOwner = lastTurn
            return lastTurn
        }
    }

    /// Gives the turn back, unless it passed to a recovery meanwhile (`takeStalledStep`).
    package func releaseTurn(_ id: UInt64) {
        let held = lock.withLock {
            guard turnOwner == id else { return false }
            turnOwner = 0
            return true
        }
        if held { turn.signal() }
    }

    /// The committed state; with the turn held, what the next step starts from.
    func committedState() -> StepState {
        lock.withLock { committed }
    }

    /// Makes `state` the committed state, if its step still holds the turn, and returns the
    /// committed view. The state it replaces is released after the lock: an instance only it
    /// held is destroyed outside it.
    @discardableResult
    func commit(_ state: StepState) -> SessionView {
        var replaced = state
        let view = lock.withLock {
            if turnOwner == state.stepID { swap(&committed, &replaced) }
            return Self.view(of: committed)
        }
        withExtendedLifetime(replaced) {}
        return view
    }

    /// A step whose call the watchdog gave up, taken from its stuck thread
    /// (`takeStalledStep`) to be finished elsewhere (`recover`).
    package struct StalledStep: Sendable {
        fileprivate let call: PendingCall
        fileprivate let turn: UInt64
        fileprivate let error: ModuleCallError
    }

    /// Takes the step stuck in a call that the watchdog gave up (`givenUp` says which),
    /// with its turn: from now on the stuck thread's step commits nothing and calls no module,
    /// whatever its call does. nil when there is no such step any more (the call returned in
    /// time, and its step goes on by itself).
    package func takeStalledStep(_ givenUp: CallHandOff.GivenUp) -> StalledStep? {
        lock.withLock { () -> StalledStep? in
            guard let call = pending, call.number == givenUp.number, call.state.stepID == turnOwner else { return nil }
            pending = nil
            lastTurn += 1
            turnOwner = lastTurn
            return StalledStep(call: call, turn: lastTurn, error: givenUp.error)
        }
    }

    /// Finishes a taken stalled step on the calling thread, as the step itself goes on after a
    /// stall (the stall reported, the abandoned screen closed), and gives its turn back; what the
    /// step would have done after that call is dropped.
    package func recover(_ stalled: StalledStep) -> SessionView {
        var state = stalled.call.state
        state.stepID = stalled.turn
        switch stalled.call.resume {
        case .build(let route, let moduleID):
            _ = recoverFromBuildStall(stalled.error, route: route, moduleID: moduleID, &state)
        case .handle(let top, let isAppear):
            recoverFromHandleStall(stalled.error, top: top, isAppear: isAppear, &state)
        }
        return finish(state)
    }

    /// The runner for this step's calls.
    private func runner(for state: StepState) -> ModuleCallRunner {
        state.unrecovered ? runner.unrecovered : runner
    }

    /// Before a module call of a step in a session with a hand-off: records where the step stands.
    private func callStarts(_ resume: PendingCall.Resume, _ state: StepState) {
        guard !state.unrecovered, let handOff = runner.handOff else { return }
        let call = PendingCall(state: state, resume: resume, number: handOff.number())
        lock.withLock { pending = call }
    }

    /// The call returned in time.
    private func callReturned(_ state: StepState) {
        guard !state.unrecovered, runner.handOff != nil else { return }
        lock.withLock { if pending?.state.stepID == state.stepID { pending = nil } }
    }

    /// The call was given up: true when this step goes on (nobody recovers it, or the call
    /// returned before anyone recovered its step); false, and the step is abandoned,
    /// when `takeStalledStep` took its turn.
    private func callGivenUp(_ state: inout StepState) -> Bool {
        guard !state.unrecovered, runner.handOff != nil else { return true }
        let ours = lock.withLock { () -> Bool in
            guard pending?.state.stepID == state.stepID, turnOwner == state.stepID else { return false }
            pending = nil
            return true
        }
        if !ours { state.abandoned = true }
        return ours
    }

    /// Pushes the screen for `route`; the view it returns is also `current`.
    @discardableResult
    public func open(_ route: String) -> SessionView {
        step { _ = push(route, &$0) }
    }

    /// Replaces the top screen with the one for `route`.
    package func replace(_ route: String) -> SessionView {
        step { _ = replaceTop(route, &$0) }
    }

    /// Pops the top screen; at the bottom of the stack nothing changes.
    package func back() -> SessionView {
        step { pop(&$0) }
    }

    /// Follows a link: to the screen just below when that is where the link leads ("All jogs"
    /// from a jog opened from the list goes back to it), else opens the route. The browser
    /// does the same for a page request of the route below (its Back button).
    package func follow(_ route: String) -> SessionView {
        if let view = current, view.backStack.last == route, !view.isHostScreen { return back() }
        return open(route)
    }

    /// The shell around this session's screens: the app's name, the loaded modules' navigation
    /// entries, the logged-in user and where they log in or change their password. Reads the
    /// registry and the session's user; calls no module.
    public func shell() -> AppShell {
        // As recorded: the step that drew the screen has just checked the account (a deleted
        // one is logged out then), so the shell adds no storage read to every page.
        let user = sessions?.recordedUser(of: id)
        let entries = registry.navigation.map { item in
            AppShell.Entry(title: item.entry.title, route: item.entry.route, moduleID: item.moduleID,
                           needsLogin: item.entry.requiresLogin && user == nil)
        }
        func served(_ route: String) -> String? {
            if case .success = registry.resolve(route) { return route }
            return nil
        }
        return AppShell(appName: appName(), entries: entries, user: user,
                        loginRoute: user == nil ? served(RouteGuard.loginRoute) : nil,
                        passwordRoute: user == nil ? nil : served(RouteGuard.passwordRoute))
    }

    /// Logs the session's user out (the shell's Log out, in any front-end): the guarded
    /// screen on top reopens through the route guard, any other screen is shown again so it
    /// can tell that nobody is logged in.
    package func logOut() -> SessionView {
        step { state in
            guard let user = currentUser else {
                state.notices.append("Nobody is logged in.")
                return
            }
            sessions?.setUser(nil, of: id)
            state.notices.append("\(user) is logged out.")
            if let top = state.stack.last, !isStale(top) { dispatch(.appear, &state) }
        }
    }

    /// Sends an action (a button's id and the form's values) to the top screen's module.
    public func send(action: String, fields: [String: String]) -> SessionView {
        step { dispatch(.action(id: action, fields: fields), &$0) }
    }

    /// Tells the top screen's module that field `field` changed (sent only for fields whose
    /// element asked for it with `changes`); the reply is shown like an action's.
    package func send(change field: String, fields: [String: String]) -> SessionView {
        let change = FieldChange(field: field, fields: fields)
        return step { state in dispatch(&state) { (instance, runner) throws(ModuleCallError) in try instance.handle(change, runner: runner) } }
    }

    /// Runs one user step. A step that chains more navigations than the budget allows (a module
    /// that navigates on every appear) is undone, so the user is never trapped in the loop.
    func step(_ body: (inout StepState) -> Void) -> SessionView {
        // The step works on a copy; readers see the committed state until it ends.
        let id = takeTurn()
        var state = committedState()
        state.openedURLs = []
        state.notices = []
        state.errors = []
        state.overflowed = false
        state.budget = NavigationSession.maxChainedEffects
        state.stepID = id
        state.undo = state.stack
        body(&state)
        return finish(state)
    }

    /// Ends a step: the checks every step ends with, then the commit, and the turn given back.
    private func finish(_ state: StepState) -> SessionView {
        var state = state
        // The step may have changed the user (a module logged out): a guarded screen left
        // on top must not show the previous user's data.
        if !state.abandoned, !state.overflowed, let top = state.stack.last, isStale(top) { reopenThroughGuard(&state) }
        if state.abandoned {
            // Its recovery answered and holds the turn now; this thread only leaves.
            return current ?? Self.view(of: StepState())
        }
        if state.overflowed {
            // Keep the screen the user asked for when there was nothing before it.
            state.stack = state.undo.isEmpty ? Array(state.stack.prefix(1)) : state.undo
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
        state.undo = []
        let view = commit(state)
        releaseTurn(state.stepID)
        return view
    }

    private static func view(of state: StepState) -> SessionView {
        guard let top = state.stack.last else {
            return SessionView(route: "", screen: Screen(title: "Den", elements: [.text("Nothing is open yet.")]),
                               moduleID: nil, backStack: [], openURLs: state.openedURLs, notices: state.notices, errors: state.errors,
                               isHostScreen: true)
        }
        return SessionView(route: top.route, screen: top.screen, moduleID: top.moduleID,
                           backStack: state.stack.dropLast().map(\.route), openURLs: state.openedURLs, notices: state.notices,
                           errors: state.errors, isHostScreen: top.instance == nil, failure: top.failure,
                           backTitle: state.stack.dropLast().last?.screen.title)
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
        // A module replacing its screen with a route already open below returns to that screen,
        // the screens above it closing, rather than stacking a second copy: a deleted jog's
        // screen gives way to the list it was opened from. It appears again, so it shows what
        // changed meanwhile. (A host screen on top is never kept: the route takes its place.)
        if replacingTop, let top = state.stack.last, top.instance != nil, top.route != route,
           let index = state.stack.dropLast().lastIndex(where: { $0.route == route && $0.instance != nil }) {
            state.stack.removeSubrange((index + 1)...)
            dispatch(.appear, &state)
            return true
        }
        let (entry, stall) = makeEntry(route, &state)
        if let stall {
            return recoverFromBuildStall(stall, route: entry.route, moduleID: entry.moduleID ?? "", &state)
        }
        // A host screen ("Not found", "Cannot open") is shown but never becomes a back-stack
        // entry: whatever is opened next takes its place.
        if replacingTop || state.stack.last?.instance == nil, !state.stack.isEmpty { state.stack.removeLast() }
        state.stack.append(entry)
        dispatch(.appear, &state)
        return true
    }

    /// After the host gave up on the builder of `route`: the user stays on the screen they were
    /// on (nothing is replaced) with a banner saying what happened; on an empty stack, a host
    /// screen says it. True when that screen was put on the stack.
    private func recoverFromBuildStall(_ error: ModuleCallError, route: String, moduleID: String, _ state: inout StepState) -> Bool {
        if !state.stack.isEmpty {
            reportStall(error, &state)
            return false
        }
        state.stack.append(Entry(route: route, moduleID: moduleID, instance: nil, screen: HostScreens.failed(route, error),
                                 failure: error))
        reportStall(error, &state)
        return true
    }

    /// After the host gave up on `handle` of the top screen `top`: the instance is abandoned, so
    /// its screen closes and the user goes back to a working one. On the first screen there is
    /// none below, so the route is built afresh (once: a fresh instance that stalls too leaves a
    /// host screen saying so).
    private func recoverFromHandleStall(_ error: ModuleCallError, top: Entry, isAppear: Bool, _ state: inout StepState) {
        state.stack.removeLast()
        if !state.stack.isEmpty {
            dispatch(.appear, &state)
        } else if isAppear {
            state.stack.append(Entry(route: top.route, moduleID: top.moduleID, instance: nil,
                                     screen: HostScreens.failed(top.route, error), failure: error))
        } else {
            _ = show(top.route, replacingTop: false, &state)
        }
        reportStall(error, &state)
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
    func makeEntry(_ route: String, _ state: inout StepState) -> (Entry, stall: ModuleCallError?) {
        switch registry.resolve(route) {
        case .failure(let error):
            if let refusal = registry.refusal(serving: route) {
                return (Entry(route: route, moduleID: nil, instance: nil, screen: HostScreens.refused(route, refusal)), nil)
            }
            logger?.debug("no module serves \(route): \(error)")
            return (Entry(route: route, moduleID: nil, instance: nil,
                          screen: HostScreens.notFound(error, routes: registry.routes, unknownRoutes: registry.failuresWithUnknownRoutes)), nil)
        case .success(let match):
            let user = currentUser
            switch RouteGuard.decide(route, match, user: user, resolve: registry.resolve) {
            case .open:
                return build(route, match, guardedFor: match.value.requiresLogin ? user : nil, &state)
            case .login(let login, let loginMatch, let notice):
                logger?.debug("\(route) needs a logged-in user; opening \(login) instead")
                state.notices.append(notice)
                return build(login, loginMatch, guardedFor: nil, &state)
            case .refused(let screen):
                logger?.notice("cannot open \(route): it needs a logged-in user and the login route cannot be shown",
                                metadata: ["module": "\(match.value.moduleID)"])
                return (Entry(route: route, moduleID: match.value.moduleID, instance: nil, screen: screen), nil)
            }
        }
    }

    /// Calls the builder of a resolved route.
    private func build(_ route: String, _ match: RouteMatch<RouteTarget>, guardedFor: String?,
                       _ state: inout StepState) -> (Entry, stall: ModuleCallError?) {
        let request = BuildRequest(route: route, pattern: match.pattern, parameters: match.parameters, query: match.query,
                                   queryValues: match.queryValues)
        if state.abandoned {
            return (Entry(route: route, moduleID: match.value.moduleID, instance: nil, screen: Screen(title: route, elements: [])), nil)
        }
        callStarts(.build(route: route, moduleID: match.value.moduleID), state)
        do {
            let started = ContinuousClock.now // `--log-level debug` shows build timings
            let instance = try ModuleInstanceHandle.build(match.value, request: request, runner: runner(for: state))
            callReturned(state)
            logger?.debug("built \(route) (module \(match.value.moduleID)) in \(PluginLoadTiming.format(ContinuousClock.now - started))")
            return (Entry(route: route, moduleID: match.value.moduleID, instance: instance,
                          screen: Screen(title: route, elements: []), guardedFor: guardedFor), nil)
        } catch {
            if !error.isStall { callReturned(state) } else if !callGivenUp(&state) {
                return (Entry(route: route, moduleID: match.value.moduleID, instance: nil, screen: Screen(title: route, elements: [])), nil)
            }
            return (Entry(route: route, moduleID: match.value.moduleID, instance: nil,
                          screen: HostScreens.failed(route, error), failure: error), error.isStall ? error : nil)
        }
    }

    /// Says that the host gave up on a module call: in the step's errors, the log, and a banner
    /// on the screen now on top.
    private func reportStall(_ error: ModuleCallError, _ state: inout StepState) {
        guard !state.abandoned else { return }
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
        guard !state.overflowed, !state.abandoned, let top = state.stack.last, let instance = top.instance else { return }
        // No event reaches a guarded instance built for another user: it could act on, or
        // show, that user's data.
        if isStale(top) {
            if !isAppear { state.notices.append("The logged-in user changed since \(top.route) was opened, so it was opened again; your last action was not sent.") }
            reopenThroughGuard(&state)
            return
        }
        let reply: ModuleReply
        callStarts(.handle(top: top, isAppear: isAppear), state)
        do {
            reply = try send(instance, runner(for: state))
            callReturned(state)
        } catch where error.isStall {
            // The instance is abandoned: close its screen and go back to a working one (unless
            // the recovery did that already, having taken this step's turn).
            if callGivenUp(&state) { recoverFromHandleStall(error, top: top, isAppear: isAppear, &state) }
            return
        } catch {
            callReturned(state)
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
