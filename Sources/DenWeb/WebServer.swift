import DenHost
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// `den serve`: the browser front-end on Hummingbird. One `NavigationSession` per browser session
/// (`BrowserSessionTable`), module calls off the server's threads (`BrowserSession`), every page
/// drawn by DenWebPages. DenHost knows nothing of this.
package struct WebServer: Sendable {
    package let runtime: DenRuntime
    package let configuration: WebConfiguration
    let responder: DenWebResponder

    /// Browser sessions held in memory now (metrics' `den_live_sessions`).
    package var liveSessions: Int { responder.sessions.count }

    package init(runtime: DenRuntime, configuration: WebConfiguration = WebConfiguration()) {
        self.runtime = runtime
        self.configuration = configuration
        responder = DenWebResponder(runtime: runtime, configuration: configuration)
    }

    /// The Hummingbird application; `onListening` hears the URL once the socket is bound (with
    /// the real port when `port` is 0).
    /// `maxConnections`: the connection cap in force (`run` lowers the configured one to what the
    /// descriptor limit allows).
    package func makeApplication(maxConnections: Int? = nil,
                                 onListening: @escaping @Sendable (String) -> Void = { _ in }) -> some ApplicationProtocol {
        let limits = configuration.limits
        let gauge = ConnectionGauge(cap: maxConnections ?? configuration.maxConnections)
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [RequestDeadlineHandler(bodyTimeout: limits.bodyTimeout, gauge: gauge)],
            idleTimeout: TimeAmount(limits.idleTimeout),
            httpDecoderConfiguration: .init(maxHeaderFieldSize: limits.maxHeaderBytes, maxHeaderListSize: limits.maxHeaderBytes,
                                            maxHeaderFieldCount: limits.maxHeaderCount))
        let events = runtime.events
        let server = HTTPServerBuilder { responder in
            CappedHTTPChannel(inner: HTTP1Channel(responder: responder, configuration: http1), gauge: gauge, events: events)
        }
        let host = configuration.host
        // Past the cap and the refusals' room, Hummingbird stops accepting until a connection
        // closes (no accept, no descriptor, no EMFILE).
        let accepting = MaximumAvailableConnections(gauge.cap + CappedHTTPChannel.refusalRoom)
        return Application(responder: responder, server: server,
                           configuration: ApplicationConfiguration(address: .hostname(host, port: configuration.port), serverName: nil,
                                                                   availableConnectionsDelegate: accepting),
                           onServerRunning: { channel in
                               let port = channel.localAddress?.port ?? 0
                               let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
                               onListening("http://\(shown):\(port)")
                           },
                           logger: Logger(label: runtime.logger.label) { _ in RequestLogHandler(runtime.logger) })
    }

    /// Serves until SIGINT or SIGTERM, then stops taking connections and finishes the requests
    /// in progress.
    package func run(onListening: @escaping @Sendable (String) -> Void) async throws {
        if !configuration.bindsLoopback {
            runtime.logger.warning("den serve is binding \(configuration.host), which other machines can reach; every module's screens (and logins) are served to anyone who can connect. Bind 127.0.0.1 (the default) unless that is what you want.")
        }
        // Every connection is a descriptor: take all the system allows, and cap connections below it.
        let softLimit = DescriptorBudget.raiseSoftLimit()
        let (cap, lowered) = DescriptorBudget.cap(asked: configuration.maxConnections, softLimit: softLimit)
        if lowered {
            runtime.logger.warning("den serve can hold at most \(cap) connections, not --max-connections \(configuration.maxConnections): its descriptor limit is \(softLimit ?? 0) and \(DescriptorBudget.reserved) are kept for everything else. Raise the limit (ulimit -n, LimitNOFILE=) to allow more.")
        }
        try await makeApplication(maxConnections: cap, onListening: onListening).runService()
    }
}
