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

    let registry: ModuleRegistry
    let runner: ModuleCallRunner
    let logger: Logger?
    /// A front-end interrupts the module call in progress through this (the terminal's Ctrl-C).
    package let interruption: CallInterruption
    /// This session's identity for the `session` and `auth` services (`CallContext`).
    package let id: UISessionID
    /// Where this session's values live; they are forgotten when the session ends.
    private let sessions: SessionStore?
    let lock = Lock()
    var stack: [Entry] = []
    var openedURLs: [String] = []
    var notices: [String] = []
    var errors: [String] = []
    /// Set when a step used up its navigation budget: the step is then undone.
    private var overflowed = false

    /// - Parameters:
    ///   - policy: how long a module call may run before the host gives up on it.
    ///   - placement: where module calls run (a thread each, or this thread for a one-shot command).
    ///   - onSlowCall: told when a call has run past `policy.slowNotice` (say what we wait for).
    ///   - interruption: how a front-end interrupts calls (default: only through `interrupt()`).
    package init(registry: ModuleRegistry, policy: ModuleCallPolicy = .default, placement: CallPlacement = .ownThread, logger: Logger? = nil,
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
        // A hot swap reaches every live instance through this list (HotSwap/).
        registry.liveSessions.add(self)
    }

    deinit {
        sessions?.end(id)
    }

    /// The top of the stack, or nil before the first `open`.
    public var current: SessionView? {
        lock.withLock { stack.isEmpty ? nil : view() }
    }

    /// Pushes the screen for `route`; the view it returns is also `current`.
    @discardableResult
    public func open(_ route: String) -> SessionView {
        step { _ = push(route, budget: &$0) }
    }

    /// Replaces the top screen with the one for `route`.
    package func replace(_ route: String) -> SessionView {
        step { _ = replaceTop(route, budget: &$0) }
    }

    /// Pops the top screen; at the bottom of the stack nothing changes.
    package func back() -> SessionView {
        step { pop(budget: &$0) }
    }

    /// Sends an action (a button's id and the form's values) to the top screen's module.
    public func send(action: String, fields: [String: String]) -> SessionView {
        step { dispatch(.action(id: action, fields: fields), budget: &$0) }
    }

    /// Tells the top screen's module that field `field` changed (sent only for fields whose
    /// element asked for it with `changes`); the reply is shown like an action's.
    package func send(change field: String, fields: [String: String]) -> SessionView {
        let change = FieldChange(field: field, fields: fields)
        return step { budget in dispatch(budget: &budget) { (instance, runner) throws(ModuleCallError) in try instance.handle(change, runner: runner) } }
    }

    /// Runs one user step. A step that chains more navigations than the budget allows (a module
    /// that navigates on every appear) is undone, so the user is never trapped in the loop.
    private func step(_ body: (inout Int) -> Void) -> SessionView {
        lock.withLock {
            openedURLs = []
            notices = []
            errors = []
            overflowed = false
            let saved = stack
            var budget = NavigationSession.maxChainedEffects
            body(&budget)
            // The step may have changed the user (a module logged out): a guarded screen left
            // on top must not show the previous user's data.
            if !overflowed, let top = stack.last, isStale(top) { reopenThroughGuard(budget: &budget) }
            if overflowed {
                // Keep the screen the user asked for when there was nothing before it.
                stack = saved.isEmpty ? Array(stack.prefix(1)) : saved
                openedURLs = []
                let message = "more than \(NavigationSession.maxChainedEffects) navigations were chained in one step (a redirect loop?); the host stopped them and stayed here"
                errors.append(message)
                if let top = stack.indices.last {
                    // Undoing the step does not undo a logout: hide a screen built for that user.
                    if isStale(stack[top]) {
                        stack[top] = Entry(route: stack[top].route, moduleID: stack[top].moduleID, instance: nil,
                                           screen: HostScreens.userChanged(stack[top].route))
                    }
                    stack[top].screen = HostScreens.withError(stack[top].screen, message)
                }
            }
            return view()
        }
    }

    private func view() -> SessionView {
        guard let top = stack.last else {
            return SessionView(route: "", screen: Screen(title: "Den", elements: [.text("Nothing is open yet.")]),
                               moduleID: nil, backStack: [], openURLs: openedURLs, notices: notices, errors: errors,
                               isHostScreen: true)
        }
        return SessionView(route: top.route, screen: top.screen, moduleID: top.moduleID,
                           backStack: stack.dropLast().map(\.route), openURLs: openedURLs, notices: notices,
                           errors: errors, isHostScreen: top.instance == nil)
    }

    private func push(_ route: String, budget: inout Int) -> Bool {
        show(route, replacingTop: false, budget: &budget)
    }

    private func replaceTop(_ route: String, budget: inout Int) -> Bool {
        show(route, replacingTop: true, budget: &budget)
    }

    /// Builds the screen for `route` first, then puts it on the stack. When the host gave up on
    /// the builder, the user stays on the screen they were on (nothing is replaced), and the
    /// banner says what happened.
    private func show(_ route: String, replacingTop: Bool, budget: inout Int) -> Bool {
        let (entry, stall) = makeEntry(route)
        if let stall, !stack.isEmpty {
            reportStall(stall)
            return false
        }
        // A host screen ("Not found", "Cannot open") is shown but never becomes a back-stack
        // entry: whatever is opened next takes its place.
        if replacingTop || stack.last?.instance == nil, !stack.isEmpty { stack.removeLast() }
        stack.append(entry)
        if let stall {
            reportStall(stall)
            return true
        }
        dispatch(.appear, budget: &budget)
        return true
    }

    private func pop(budget: inout Int) {
        guard stack.count > 1 else {
            notices.append("This is the first screen: there is nothing to go back to.")
            return
        }
        stack.removeLast()
        // The screen below may show data the popped one changed (e.g. after a login).
        dispatch(.appear, budget: &budget)
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
    private func reopenThroughGuard(budget: inout Int) {
        let stale = stack.removeLast()
        logger?.debug("\(stale.route) was built for another user; reopening it through the guard",
                      metadata: ["module": "\(stale.moduleID ?? "?")"])
        _ = show(stale.route, replacingTop: false, budget: &budget)
    }

    /// Builds the instance for a route, or a host screen saying why there is none; a builder the
    /// host gave up on is returned as `stall` too. A guarded route goes through `RouteGuard`
    /// first, so its builder never runs while nobody is logged in.
    private func makeEntry(_ route: String) -> (Entry, stall: ModuleCallError?) {
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
                notices.append(notice)
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
    private func reportStall(_ error: ModuleCallError) {
        errors.append(error.description)
        logger?.error("\(error.description)", metadata: ["module": "\(error.moduleID)"])
        if let top = stack.indices.last {
            stack[top].screen = HostScreens.withError(stack[top].screen, error.description)
        }
    }

    /// Sends an event to the top instance, shows its reply and applies its effects.
    func dispatch(_ event: ModuleEvent, budget: inout Int) {
        dispatch(budget: &budget, isAppear: event == .appear) { (instance, runner) throws(ModuleCallError) in
            try instance.handle(event, runner: runner)
        }
    }

    /// Sends one document (`send`) to the top instance, shows its reply and applies its effects.
    private func dispatch(budget: inout Int, isAppear: Bool = false,
                          send: (ModuleInstanceHandle, ModuleCallRunner) throws(ModuleCallError) -> ModuleReply) {
        guard !overflowed, let top = stack.last, let instance = top.instance else { return }
        // No event reaches a guarded instance built for another user: it could act on, or
        // show, that user's data.
        if isStale(top) {
            if !isAppear { notices.append("The logged-in user changed since \(top.route) was opened, so it was opened again; your last action was not sent.") }
            reopenThroughGuard(budget: &budget)
            return
        }
        let reply: ModuleReply
        do {
            reply = try send(instance, runner)
        } catch where error.isStall {
            // The instance is abandoned: close its screen and go back to a working one. On the
            // first screen there is none below, so the route is built afresh (once: a fresh
            // instance that stalls too leaves a host screen saying so).
            stack.removeLast()
            if !stack.isEmpty {
                dispatch(.appear, budget: &budget)
            } else if isAppear {
                stack.append(Entry(route: top.route, moduleID: top.moduleID, instance: nil,
                                   screen: HostScreens.failed(top.route, error)))
            } else {
                _ = show(top.route, replacingTop: false, budget: &budget)
            }
            reportStall(error)
            return
        } catch {
            errors.append(error.description)
            stack[stack.count - 1].screen = HostScreens.withError(top.screen, error.description)
            return
        }
        stack[stack.count - 1].screen = reply.screen
        var refusedURLs: [String] = []
        defer {
            // One banner for every refused URL of this reply, on the screen that sent them.
            if !refusedURLs.isEmpty, let index = stack.firstIndex(where: { $0.instance === instance }) {
                stack[index].screen = HostScreens.withError(stack[index].screen, refusedURLs.joined(separator: "\n"))
            }
        }
        for effect in reply.effects {
            if case .openURL(let url) = effect {
                if let refusal = ExternalURLPolicy.refusal(for: url) {
                    let message = "module '\(top.moduleID ?? "?")' asked to open '\(ModuleText.singleLine(url, limit: 200))'; the host refused: \(refusal)"
                    errors.append(message)
                    refusedURLs.append(message)
                    logger?.warning("\(message)", metadata: ["module": "\(top.moduleID ?? "?")"])
                } else {
                    openedURLs.append(url)
                }
                continue
            }
            // Only navigations count against the budget.
            guard budget > 0 else {
                overflowed = true
                return
            }
            budget -= 1
            switch effect {
            case .navigate(let route): _ = push(route, budget: &budget)
            case .replace(let route): _ = replaceTop(route, budget: &budget)
            case .back: pop(budget: &budget)
            case .openURL: break
            }
            if overflowed { return }
        }
    }
}
