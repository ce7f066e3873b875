import DenHost
import Hummingbird
import HummingbirdCore
import Logging

/// `den serve`: the browser front-end on Hummingbird. One `NavigationSession` per browser session
/// (`BrowserSessionTable`), module calls off the server's threads (`BrowserSession`), every page
/// drawn by DenWebPages. DenHost knows nothing of this.
package struct WebServer: Sendable {
    package let runtime: DenRuntime
    package let configuration: WebConfiguration
    let responder: DenWebResponder

    package init(runtime: DenRuntime, configuration: WebConfiguration = WebConfiguration()) {
        self.runtime = runtime
        self.configuration = configuration
        responder = DenWebResponder(runtime: runtime, configuration: configuration)
    }

    /// The Hummingbird application; `onListening` hears the URL once the socket is bound (with
    /// the real port when `port` is 0).
    package func makeApplication(onListening: @escaping @Sendable (String) -> Void = { _ in }) -> some ApplicationProtocol {
        let limits = configuration.limits
        let server = HTTPServerBuilder.http1(configuration: HTTP1Channel.Configuration(
            idleTimeout: .seconds(60),
            httpDecoderConfiguration: .init(maxHeaderFieldSize: limits.maxHeaderBytes, maxHeaderListSize: limits.maxHeaderBytes,
                                            maxHeaderFieldCount: limits.maxHeaderCount)))
        let host = configuration.host
        return Application(responder: responder, server: server,
                           configuration: ApplicationConfiguration(address: .hostname(host, port: configuration.port), serverName: nil),
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
        try await makeApplication(onListening: onListening).runService()
    }
}
