/// Something the host or its front-end did that an operator counts (metrics: DenMetrics).
public enum HostEvent: Sendable, Equatable {
    /// A front-end answered a request with this status (a browser page, a form, `/_health`).
    case answered(status: Int)
    /// A connection was refused at the connection cap.
    case connectionRefused
    /// A browser session was saved to storage.
    case sessionSaved
    /// An audit line was written: `login.ok`, `login.failed`, `login.throttled`, … (docs/ABI.md, "Accounts").
    case audit(String)
}

/// Hears of host events as they happen, on the thread that caused them: keep it short.
public protocol HostEventObserver: Sendable {
    func hostEvent(_ event: HostEvent)
}

/// The runtime's host event observers, added while den runs.
package struct RuntimeEventObserver: HostEventObserver {
    let added: ObserverList<any HostEventObserver>

    package init(added: ObserverList<any HostEventObserver>) {
        self.added = added
    }

    package func hostEvent(_ event: HostEvent) {
        for observer in added.all { observer.hostEvent(event) }
    }
}
