import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// The connections `den serve` holds, counted against the cap.
package final class ConnectionGauge: Sendable {
    package let cap: Int
    private let open = Atomic<Int>(0)

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
}

/// HTTP/1 connections, at most `gauge.cap` at once. One past the cap is answered at once with a
/// `503` and `Retry-After`, without reading its request, and closed: a client keeps getting an
/// answer while slow connections hold every place (their own deadlines free them,
/// `RequestDeadlineHandler`). Hummingbird's `MaximumAvailableConnections` (the cap plus
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

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard gauge.take() else { return channel.eventLoop.makeSucceededFuture(.refused(channel)) }
        let gauge = gauge
        channel.closeFuture.whenComplete { _ in gauge.release() }
        return inner.setup(channel: channel, logger: logger).map { .served($0) }
    }

    func handle(value: Value, logger: Logger) async {
        switch value {
        case .served(let served):
            await inner.handle(value: served, logger: logger)
        case .refused(let channel):
            logger.debug("den serve refused a connection: \(gauge.cap) connections are open (--max-connections)")
            try? await channel.writeAndFlush(Self.refusal)
            try? await channel.close(mode: .output)
            try? await Task.sleep(for: .seconds(1))
            try? await channel.close()
        }
    }
}
