import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// Cuts a connection whose request body does not arrive in time. Hummingbird's idle timeout
/// counts every body part as activity, so a body sent one byte every few seconds was never cut;
/// this bounds the whole body, from its head to its end. (A head is already bounded by the idle
/// timeout: it counts as activity only once it is complete.)
/// It also tells the connection gauge when a connection is busy with a request (from its head to
/// its response's end) and when it waits for the next head, which only a waiting connection
/// may be closed for a newcomer at the cap (`ConnectionGauge`).
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let bodyTimeout: TimeAmount
    private let gauge: ConnectionGauge?
    private var deadline: Scheduled<Void>?

    init(bodyTimeout: Duration, gauge: ConnectionGauge? = nil) {
        self.bodyTimeout = TimeAmount(bodyTimeout)
        self.gauge = gauge
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            gauge?.busy(context.channel)
            cancel()
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            deadline = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: bodyTimeout) {
                loopBound.value.close(promise: nil)
            }
        case .body:
            break
        case .end:
            cancel()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { gauge?.waits(context.channel) }
        context.write(data, promise: promise)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    private func cancel() {
        deadline?.cancel()
        deadline = nil
    }
}
