import DenHost
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// The connections `den serve` holds, counted against the cap, and which of them wait for a
/// request head (just opened, or idle between requests): at the cap, the one that has waited
/// longest gives its place to a newcomer (`evictLongestWaiting`), so slow heads (a slowloris)
/// cannot keep normal clients out.
package final class ConnectionGauge: Sendable {
    package let cap: Int
    /// A head has this long before its connection may be closed for a newcomer: a real client
    /// sends its head within milliseconds of connecting.
    static let evictionAge = TimeAmount.seconds(1)
    private let open = Atomic<Int>(0)
    private let connections = Mutex<[ObjectIdentifier: Held]>([:])

    private struct Held {
        var channel: any Channel
        var place: Place
        /// Since when it waits for a request head; nil while a request is in progress.
        var waitingSince: NIODeadline?
    }

    /// A connection's place under the cap: given back when it closes, unless it was handed to
    /// the newcomer it was closed for.
    final class Place: Sendable {
        private let handedOver = Atomic(false)

        func handOver() { handedOver.store(true, ordering: .releasing) }
        var isHandedOver: Bool { handedOver.load(ordering: .acquiring) }
    }

    package init(cap: Int) {
        self.cap = max(1, cap)
    }

    package var count: Int { open.load(ordering: .relaxed) }

    /// Takes a place for a new connection; false at the cap.
    func take() -> Bool {
        let now = open.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        guard now > cap else { return true }
        open.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        return false
    }

    func release() {
        open.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }

    /// A place for a new connection: a free one, else the place of the connection that has waited
    /// longest for a head, past `evictionAge` (closed here); nil when every connection is busy
    /// with a request or has only just connected. At the cap only: the scan is over every connection.
    func place(now: NIODeadline = .now()) -> Place? {
        if take() { return Place() }
        let victim = connections.withLock { connections -> Held? in
            var oldest: (key: ObjectIdentifier, since: NIODeadline)?
            for (key, held) in connections {
                guard let since = held.waitingSince, since + Self.evictionAge <= now else { continue }
                if oldest.map({ since < $0.since }) ?? true { oldest = (key, since) }
            }
            guard let oldest else { return nil }
            return connections.removeValue(forKey: oldest.key)
        }
        guard let victim else { return nil }
        victim.place.handOver()
        victim.channel.close(promise: nil)
        return Place()
    }

    /// A new connection in `place`, waiting for its first head.
    func opened(_ channel: any Channel, place: Place, now: NIODeadline = .now()) {
        connections.withLock { $0[ObjectIdentifier(channel)] = Held(channel: channel, place: place, waitingSince: now) }
    }

    /// The connection's request head arrived: it is busy until its response ends.
    func busy(_ channel: any Channel) {
        connections.withLock { $0[ObjectIdentifier(channel)]?.waitingSince = nil }
    }

    /// The connection's response ended: it waits for the next head.
    func waits(_ channel: any Channel, now: NIODeadline = .now()) {
        connections.withLock { $0[ObjectIdentifier(channel)]?.waitingSince = now }
    }

    /// The connection closed: its place is free, unless a newcomer took it.
    func closed(_ channel: any Channel, place: Place) {
        _ = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
        if !place.isHandedOver { release() }
    }
}

/// HTTP/1 connections, at most `gauge.cap` at once. One past the cap takes the place of the
/// connection that has waited longest for a request head, if one has waited past
/// `ConnectionGauge.evictionAge`; else it is answered at once with a `503` and `Retry-After`,
/// without reading its request, and closed: a client keeps getting an answer while busy
/// connections hold every place (their own deadlines free them, `RequestDeadlineHandler`). Hummingbird's `MaximumAvailableConnections` (the cap plus
/// `refusalRoom`) stops accepting altogether past that, so refusals never use up descriptors.
struct CappedHTTPChannel: ServerChildChannel {
    enum Value: ServerChildChannelValue {
        case served(HTTP1Channel.Value)
        case refused(any Channel)

        var channel: any Channel {
            switch self {
            case .served(let value): value.channel
            case .refused(let channel): channel
            }
        }
    }

    /// Connections being refused at once, beyond the cap; past cap + this, accepting pauses.
    static let refusalRoom = 64
    /// A refused connection is closed this long after its answer, so the client reads the answer
    /// (closing at once with its request unread would reset the connection and lose it).
    static let refusalLinger = TimeAmount.seconds(1)

    static let refusal: ByteBuffer = {
        let body = "den serve has too many open connections right now; try again in a few seconds.\n"
        return ByteBuffer(string: "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nRetry-After: 5\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n\(body)")
    }()

    let inner: HTTP1Channel
    let gauge: ConnectionGauge
    /// Hears of each refusal (metrics count them).
    let events: any HostEventObserver

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard let place = gauge.place() else { return channel.eventLoop.makeSucceededFuture(.refused(channel)) }
        let gauge = gauge
        gauge.opened(channel, place: place)
        channel.closeFuture.whenComplete { _ in gauge.closed(channel, place: place) }
        return inner.setup(channel: channel, logger: logger).map { .served($0) }
    }

    func handle(value: Value, logger: Logger) async {
        switch value {
        case .served(let served):
            await inner.handle(value: served, logger: logger)
        case .refused(let channel):
            logger.debug("den serve refused a connection: \(gauge.cap) connections are open (--max-connections)")
            events.hostEvent(.connectionRefused)
            try? await channel.writeAndFlush(Self.refusal)
            try? await channel.close(mode: .output)
            try? await Task.sleep(for: .seconds(1))
            try? await channel.close()
        }
    }
}
