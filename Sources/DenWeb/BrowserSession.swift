import DenHost
import DenKit
import Dispatch
import Synchronization

/// One browser's session: its cookie id, its CSRF token and its server-side `NavigationSession`
/// (so the host's `session` and `auth` services — and a login — belong to this browser alone).
///
/// Module calls block their thread until the module answers, so they never run on the server's
/// threads: each session's requests run one by one, in order (two tabs posting at once are
/// handled one by one), on a serial queue of its own, where the session's module calls run too
/// (`ModuleCallRunner`: on the calling thread, no thread per call). When the host's call limit gives a call up,
/// the watchdog tells this session (`CallHandOff`): the queue's thread stays stuck in the
/// module, so the session moves to a fresh queue, finishes the stuck step there
/// (`NavigationSession.recover`), answers the waiting request with it and goes on with the
/// requests queued behind it.
final class BrowserSession: Sendable {
    /// What a step told the user (notices, errors, links to open), kept for the page that the
    /// post-redirect-get sends the browser to; shown once.
    struct Flash: Sendable {
        var notices: [String] = []
        var errors: [String] = []
        var openURLs: [String] = []

        /// The errors the screen does not already show: the host puts a step's error on the
        /// screen as a banner too (that is how the terminal shows it), and one is enough.
        func errorsNotOn(_ screen: Screen) -> [String] {
            errors.filter { error in
                !screen.elements.contains { if case .banner(let banner) = $0 { banner.text == error } else { false } }
            }
        }
    }

    /// One request's work on the session's queue, answered once: by its own run, or, when the
    /// watchdog gave up a call of its step, by the recovery.
    private final class Job: Sendable {
        private let answered = Mutex(false)
        let work: @Sendable (Job) -> Void
        /// Answers with the recovered view; call after `claim()` returned true.
        let answerStall: @Sendable (SessionView) -> Void
        /// The request's span when den traces: its step's module calls hang under it, on
        /// whichever queue runs them.
        let span: (any TraceSpan)?

        init(span: (any TraceSpan)? = nil, work: @escaping @Sendable (Job) -> Void, answerStall: @escaping @Sendable (SessionView) -> Void = { _ in }) {
            self.span = span
            self.work = work
            self.answerStall = answerStall
        }

        /// True the first time: the caller answers the request.
        func claim() -> Bool {
            answered.withLock { answered in
                defer { answered = true }
                return !answered
            }
        }

        /// Runs `body` unless the request was answered (under the same lock as `claim`, so a
        /// job whose step was taken over changes nothing the recovery keeps).
        func unlessAnswered<T>(_ body: () -> T) -> T? {
            answered.withLock { answered in answered ? nil : body() }
        }
    }

    /// The job running on this thread, if any (a step left behind in a stuck call keeps nothing).
    @TaskLocal private static var job: Job?

    private struct State {
        var id: String
        var csrf: String
        var lastUsed: ContinuousClock.Instant
        var flash = Flash()
        var queued = 0
        var user: String?
        /// The queue the jobs run on, replaced when a call stalls its thread.
        var lane: DispatchQueue
        /// Counts lanes: a drain of an earlier lane stops.
        var generation = 0
        var jobs: [Job] = []
        /// True while a drain runs (or is about to) on `lane`.
        var draining = false
        var running: Job?
        /// The revision of the saved copy this session matches (`BrowserSessionStore`).
        var revision: String?
        /// Deletions of the saved copy that another host reported (`BrowserSessionTable.heard`).
        var invalidations: UInt64 = 0
        /// The table's trust epoch and `invalidations` when the saved copy was last read or
        /// written: a request trusts this copy without a read only while both still hold.
        var checked: (epoch: UInt64, invalidations: UInt64)?
        /// The saved copy's storage key, for the deletions another host reports; nil after a new id.
        var storeKey: String?
        /// The document last saved or taken, to save nothing when a step changed nothing.
        var lastSaved: SavedBrowserSession?
    }

    let navigation: NavigationSession
    private let state: Mutex<State>
    /// Runs on its queue before each request's step (`BrowserSessionTable.catchUp`), with the
    /// revision the browser says it saw last (its revision cookie).
    private let beforeStep: (@Sendable (BrowserSession, String?) -> Void)?
    /// Whether the saved copy is still the one this session last saved or took
    /// (`BrowserSessionTable.holdsNewest`): a reload answered at once must not skip `beforeStep`'s catch-up.
    private let holdsNewest: (@Sendable (BrowserSession, String?) -> Bool)?
    /// Runs on its queue after each request's step, before the request is answered: a login's
    /// new cookie, and the save (`BrowserSessionTable.finishStep`).
    private let afterStep: (@Sendable (BrowserSession) -> Void)?

    /// - Parameters:
    ///   - handOff: the one `navigation` was made with, if any.
    ///   - id, csrfToken: a saved session's (`BrowserSessionTable.restore`); new ones otherwise.
    init(navigation: NavigationSession, handOff: CallHandOff? = nil, now: ContinuousClock.Instant,
         id: String? = nil, csrfToken: String? = nil, beforeStep: (@Sendable (BrowserSession, String?) -> Void)? = nil,
         holdsNewest: (@Sendable (BrowserSession, String?) -> Bool)? = nil, afterStep: (@Sendable (BrowserSession) -> Void)? = nil) {
        self.navigation = navigation
        self.beforeStep = beforeStep
        self.holdsNewest = holdsNewest
        self.afterStep = afterStep
        state = Mutex(State(id: id ?? SessionToken.make(), csrf: csrfToken ?? SessionToken.make(), lastUsed: now, lane: DispatchQueue(label: "den.web.session")))
        handOff?.listen { [weak self] call in self?.callGivenUp(call) }
    }

    /// The kept flash, left in place (for saving the session).
    var flash: Flash { state.withLock { $0.flash } }

    /// The revision of the saved copy this session matches; nil before its first save.
    var revision: String? {
        get { state.withLock { $0.revision } }
        set { state.withLock { $0.revision = newValue } }
    }

    /// Before a storage read or write that checks the saved copy: the token `markChecked` takes.
    func beginCheck() -> UInt64 { state.withLock { $0.invalidations } }

    /// The saved copy was found (or written) as this session holds it, in `epoch`; ignored when
    /// a deletion was reported since `beginCheck` (the check may have read the copy before it).
    func markChecked(epoch: UInt64, token: UInt64) {
        state.withLock { if $0.invalidations == token { $0.checked = (epoch, token) } }
    }

    /// Whether the saved copy was checked in `epoch` with no deletion reported since.
    func isChecked(epoch: UInt64) -> Bool {
        state.withLock { state in state.checked.map { $0.epoch == epoch && $0.invalidations == state.invalidations } ?? false }
    }

    /// Another host deleted the saved copy (a logout there): the next request reads it.
    func invalidate() {
        state.withLock { $0.invalidations += 1 }
    }

    var lastSaved: SavedBrowserSession? {
        get { state.withLock { $0.lastSaved } }
        set { state.withLock { $0.lastSaved = newValue } }
    }

    /// The saved copy's storage key, made once per cookie id by `make`.
    func storeKey(_ make: (String) -> String?) -> String? {
        if let key = state.withLock({ $0.storeKey }) { return key }
        let id = id
        let key = make(id)
        state.withLock { if $0.id == id { $0.storeKey = key } }
        return key
    }

    /// The cached storage key, if made (no hashing: for matching reported deletions).
    var knownStoreKey: String? { state.withLock { $0.storeKey } }

    /// The cookie's value. It changes at a login and a logout (`BrowserSessionTable.finishStep`),
    /// so a cookie seen before a login is worthless after it, and a browser never restores a
    /// page of the previous user from its back/forward cache (kept only while cookies stay).
    var id: String { state.withLock { $0.id } }

    /// The token every form of this session carries. It changes with the cookie id, at every
    /// login and logout, so a token learnt before either is worthless after it.
    var csrfToken: String { state.withLock { $0.csrf } }

    func setID(_ id: String) {
        state.withLock {
            $0.id = id
            $0.csrf = SessionToken.make()
            $0.storeKey = nil
        }
    }

    /// The user logged in when the last request ended (kept so eviction can spare logins
    /// without reading the accounts under the table's lock).
    var user: String? { state.withLock { $0.user } }

    /// Records the user now logged in; true when it changed.
    func noteUser(_ user: String?) -> Bool {
        state.withLock { state in
            defer { state.user = user }
            return state.user != user
        }
    }

    var lastUsed: ContinuousClock.Instant { state.withLock { $0.lastUsed } }

    func touch(_ now: ContinuousClock.Instant) {
        state.withLock { $0.lastUsed = now }
    }

    func keepFlash(_ view: SessionView) {
        keepFlash(Flash(notices: view.notices, errors: view.errors, openURLs: view.openURLs))
    }

    func keepFlash(_ flash: Flash) {
        _ = whileAnswerable { state.withLock { $0.flash = flash } }
    }

    /// The kept flash, forgotten as it is read.
    func takeFlash() -> Flash {
        whileAnswerable {
            state.withLock { state in
                defer { state.flash = Flash() }
                return state.flash
            }
        } ?? Flash()
    }

    /// Runs `body` unless it comes from a job that was answered already (its step was taken
    /// over after a stall, and the recovery's messages are the ones to keep).
    private func whileAnswerable<T>(_ body: () -> T) -> T? {
        guard let job = Self.job else { return body() }
        return job.unlessAnswered(body)
    }

    /// Runs `body` on this session's queue and waits without holding a server thread; nil when
    /// `limit` requests already wait (a module hangs and the browser keeps retrying). When the
    /// host gives up a module call of the step, the answer is `stalled` of the recovered view.
    func perform<T: Sendable>(limit: Int, seen: String? = nil, _ body: @escaping @Sendable (NavigationSession) -> T,
                              stalled: @escaping @Sendable (SessionView) -> T) async -> T? {
        let admitted = state.withLock { state in
            guard state.queued < limit else { return false }
            state.queued += 1
            return true
        }
        guard admitted else { return nil }
        let navigation = navigation
        // The request's span, bound again on the session's queue for the step's module calls.
        let span = CallTrace.span
        let result: T = await withCheckedContinuation { continuation in
            enqueue(Job(span: span, work: { job in
                CallTrace.with(job.span) {
                    self.beforeStep?(self, seen)
                    let value = Self.$job.withValue(job) { body(navigation) }
                    // Saved before the answer: a request answered is a request another host can carry on.
                    if let afterStep = self.afterStep, job.unlessAnswered({ true }) == true { afterStep(self) }
                    if job.claim() { continuation.resume(returning: value) }
                }
            }, answerStall: { view in
                continuation.resume(returning: stalled(view))
            }))
        }
        state.withLock { $0.queued -= 1 }
        return result
    }

    /// The screen on top, read at once on the calling task; nil while a request of this session
    /// waits or runs on its queue (a step may be about to change the screen, and its turn decides).
    /// Reading the top calls no module, so it never blocks the server's threads.
    func currentIfIdle(seen: String? = nil) -> SessionView? {
        let idle = state.withLock { $0.queued == 0 }
        guard idle, holdsNewest?(self, seen) ?? true else { return nil }
        return navigation.current
    }

    /// Runs `body` after every queued request of this session (to end it once they are done).
    func afterQueued(_ body: @escaping @Sendable () -> Void) {
        enqueue(Job(work: { _ in body() }))
    }

    private func enqueue(_ job: Job) {
        let start = state.withLock { state -> (DispatchQueue, Int)? in
            state.jobs.append(job)
            guard !state.draining else { return nil }
            state.draining = true
            return (state.lane, state.generation)
        }
        if let (lane, generation) = start { lane.async { self.drain(generation) } }
    }

    /// Runs the queued jobs one by one, until none is left or the lane was replaced.
    private func drain(_ generation: Int) {
        while let job = state.withLock({ state -> Job? in
            guard state.generation == generation else { return nil } // this thread was left in a stuck call
            guard !state.jobs.isEmpty else {
                state.draining = false
                state.running = nil
                return nil
            }
            state.running = state.jobs.removeFirst()
            return state.running
        }) {
            job.work(job)
        }
    }

    /// The watchdog gave up a call of the running job's step (on its thread: nothing here
    /// blocks it). On a fresh queue: take the step from the stuck thread, move the session's
    /// jobs to that queue, finish the step and answer its request, then go on with the rest.
    private func callGivenUp(_ call: CallHandOff.GivenUp) {
        let fresh = DispatchQueue(label: "den.web.session")
        fresh.async {
            // nil: the call returned in time after all, and its job answers by itself.
            guard let stalled = self.navigation.takeStalledStep(call) else { return }
            let (job, generation) = self.state.withLock { state -> (Job?, Int) in
                let job = state.running
                state.running = nil
                state.generation += 1
                state.lane = fresh
                state.draining = true
                return (job, state.generation)
            }
            let answering = job?.claim() == true
            // The recovery's builds belong to the request that stalled.
            let view = CallTrace.with(job?.span) { self.navigation.recover(stalled) }
            if answering { job?.answerStall(view) }
            self.drain(generation)
        }
    }
}
