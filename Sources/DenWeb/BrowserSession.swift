import DenHost
import DenKit
import Dispatch
import Synchronization

/// One browser's session: its cookie id, its CSRF token and its server-side `NavigationSession`
/// (so the host's `session` and `auth` services — and a login — belong to this browser alone).
///
/// Module calls block their thread until the module answers or the host's call limit gives up,
/// so they never run on the server's threads: each session has a serial queue of its own, which
/// also keeps one browser's requests in order (two tabs posting at once are handled one by one).
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

    private struct State {
        var id: String
        var lastUsed: ContinuousClock.Instant
        var flash = Flash()
        var queued = 0
        var user: String?
    }

    let csrfToken: String
    let navigation: NavigationSession
    private let queue: DispatchQueue
    private let state: Mutex<State>

    init(navigation: NavigationSession, now: ContinuousClock.Instant) {
        csrfToken = SessionToken.make()
        self.navigation = navigation
        queue = DispatchQueue(label: "den.web.session")
        state = Mutex(State(id: SessionToken.make(), lastUsed: now))
    }

    /// The cookie's value. It changes when the logged-in user does (`BrowserSessionTable.rekey`),
    /// so a cookie seen before a login is worthless after it, and a browser never restores a
    /// page of the previous user from its back/forward cache (kept only while cookies stay).
    var id: String { state.withLock { $0.id } }

    func setID(_ id: String) {
        state.withLock { $0.id = id }
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
        state.withLock { $0.flash = flash }
    }

    /// The kept flash, forgotten as it is read.
    func takeFlash() -> Flash {
        state.withLock { state in
            defer { state.flash = Flash() }
            return state.flash
        }
    }

    /// Runs `body` on this session's queue and waits without holding a server thread; nil when
    /// `limit` requests already wait (a module hangs and the browser keeps retrying).
    func perform<T: Sendable>(limit: Int, _ body: @escaping @Sendable (NavigationSession) -> T) async -> T? {
        let admitted = state.withLock { state in
            guard state.queued < limit else { return false }
            state.queued += 1
            return true
        }
        guard admitted else { return nil }
        let navigation = navigation
        let result: T = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body(navigation)) }
        }
        state.withLock { $0.queued -= 1 }
        return result
    }

    /// The screen on top, read at once on the calling task; nil while a request of this session
    /// waits or runs on its queue (a step may be about to change the screen, and its turn decides).
    /// Reading the top calls no module, so it never blocks the server's threads.
    func currentIfIdle() -> SessionView? {
        let idle = state.withLock { $0.queued == 0 }
        return idle ? navigation.current : nil
    }

    /// Runs `body` after every queued request of this session (to end it once they are done).
    func afterQueued(_ body: @escaping @Sendable () -> Void) {
        queue.async(execute: body)
    }
}
