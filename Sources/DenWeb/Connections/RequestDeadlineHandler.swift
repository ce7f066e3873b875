import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// Cuts a connection whose request body does not arrive in time. Hummingbird's idle timeout
/// counts every body part as activity, so a body sent one byte every few seconds was never cut;
/// this bounds the whole body, from its head to its end. (A head is already bounded by the idle
/// timeout: it counts as activity only once it is complete.)
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let bodyTimeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(bodyTimeout: Duration) {
        self.bodyTimeout = TimeAmount(bodyTimeout)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
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
