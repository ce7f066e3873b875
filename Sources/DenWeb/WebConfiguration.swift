import Foundation

/// How `den serve` listens and how much it keeps: the address, the proxy trust, the browser
/// sessions' lifetime and cap, and the request limits. Tests shrink the limits and inject a clock.
package struct WebConfiguration: Sendable {
    /// The address to bind; loopback unless the person running den chose otherwise.
    package var host: String
    /// The port; 0 lets the system pick a free one (the bound one is reported).
    package var port: Int
    /// Believe `X-Forwarded-Proto: https` from a TLS-terminating proxy in front of den: only then
    /// is the session cookie marked Secure. Off by default, since anyone can send that header.
    package var trustProxy: Bool
    /// A browser session unused this long is ended (its module instances and login go with it).
    package var sessionIdleTimeout: Duration
    /// The most live browser sessions; past it the longest idle one is ended for a new one.
    package var maxSessions: Int
    /// The most live sessions logged in to one account; a login past it ends that account's own
    /// longest unused session.
    package var maxSessionsPerAccount = 10
    /// The most open connections; one more is answered `503` at once (`CappedHTTPChannel`).
    /// `run` lowers it to what the descriptor limit allows.
    package var maxConnections: Int
    package var limits: WebLimits
    /// Development only (`--watch`, `den dev`): pages listen to these events and reload after a
    /// hot swap (docs/HOT_SWAP.md). nil: no event stream, no dev script.
    package var devEvents: DevEvents?
    /// The clock behind idle expiry.
    package var now: @Sendable () -> ContinuousClock.Instant

    package init(host: String = "127.0.0.1", port: Int = 8080, trustProxy: Bool = false,
                sessionIdleTimeout: Duration = .seconds(30 * 60), maxSessions: Int = 1000, maxConnections: Int = 10_000,
                limits: WebLimits = WebLimits(), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.host = host
        self.port = port
        self.trustProxy = trustProxy
        self.sessionIdleTimeout = sessionIdleTimeout
        self.maxSessions = maxSessions
        self.maxConnections = maxConnections
        self.limits = limits
        self.now = now
    }

    /// True for addresses only this machine can reach.
    package var bindsLoopback: Bool {
        let address = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return address == "localhost" || address == "::1" || address.hasPrefix("127.")
    }
}

/// What one request may carry. A form is a few short fields, so the defaults are generous for
/// people and small for anyone trying to exhaust memory.
package struct WebLimits: Sendable {
    /// The largest request body (a form post) in bytes.
    package var maxBodyBytes = 64 * 1024
    /// The most fields in one form.
    package var maxFields = 200
    /// The longest field name, in bytes after decoding.
    package var maxFieldNameBytes = 256
    /// The longest field value, in bytes after decoding.
    package var maxFieldValueBytes = 16 * 1024
    /// The largest request head (all header lines) and the most header lines (HTTP parser limits).
    package var maxHeaderBytes = 16 * 1024
    package var maxHeaderCount = 100
    /// A connection that sends nothing this long is closed; a request head counts only once it
    /// is complete, so this also bounds how long a head may take.
    package var idleTimeout: Duration = .seconds(60)
    /// The most time from a request's head to the end of its body (`RequestDeadlineHandler`).
    package var bodyTimeout: Duration = .seconds(30)
    /// Requests of one browser session waiting their turn (a slow module call, many tabs at
    /// once); more get a "busy" page. As many as a browser keeps in flight: tabs and retries.
    package var maxQueuedRequests = 32
    /// The deepest navigation stack a session's page visits build; past it a visit replaces the
    /// top screen instead of pushing (each screen holds a live module instance).
    package var maxStackDepth = 32

    package init() {}
}
