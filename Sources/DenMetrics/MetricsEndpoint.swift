import Hummingbird
import Logging
import NIOCore

/// `den serve --metrics 127.0.0.1:9464`: Prometheus text at `GET /metrics`, on an address of its
/// own, so the figures are never public by accident along with the pages.
public struct MetricsEndpoint: Sendable {
    public let metrics: HostMetrics
    public let address: MetricsAddress
    let logger: Logger

    public init(metrics: HostMetrics, address: MetricsAddress, logger: Logger) {
        self.metrics = metrics
        self.address = address
        self.logger = logger
    }

    /// The Prometheus text exposition format's content type.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    func makeApplication(onListening: @escaping @Sendable (String) -> Void) -> some ApplicationProtocol {
        let router = Router()
        let metrics = metrics
        router.get("metrics") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = Self.contentType
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        let host = address.host
        return Application(router: router,
                           configuration: ApplicationConfiguration(address: .hostname(host, port: address.port), serverName: nil),
                           onServerRunning: { channel in
                               let port = channel.localAddress?.port ?? 0
                               let shown = host.contains(":") ? "[\(host)]" : host
                               onListening("http://\(shown):\(port)/metrics")
                           },
                           logger: logger)
    }

    /// Serves until the task is cancelled (den serve cancels it when its pages stop).
    public func run(onListening: @escaping @Sendable (String) -> Void) async throws {
        if !address.isLoopback {
            logger.warning("den serve --metrics binds \(address.host), which other machines can reach: anyone who can connect reads every module's figures. Bind 127.0.0.1 unless a scraper elsewhere needs it (and then firewall it).")
        }
        try await makeApplication(onListening: onListening).run()
    }
}

/// Where the metrics are served: `127.0.0.1:9464`, `[::1]:9464`, `localhost:9464`; the port is
/// required (0 picks a free one).
public struct MetricsAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    /// Parses `host:port`; nil with the reason in `problem`.
    public static func parse(_ text: String) -> Result<MetricsAddress, MetricsAddressProblem> {
        let text = text.trimmingCharacters(in: .whitespaces)
        var host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return .failure(MetricsAddressProblem(text: text))
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return .failure(MetricsAddressProblem(text: text)) }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        // A name or IPv4 address of letters, digits, dots and hyphens; an IPv6 address of hex
        // digits and colons (no zone: a scope id is not an address others scrape).
        let allowed = text.hasPrefix("[") ? Set("0123456789abcdefABCDEF:.") : Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
        guard !host.isEmpty, host.allSatisfy(allowed.contains), !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(portText), (0...65535).contains(port) else { return .failure(MetricsAddressProblem(text: text)) }
        return .success(MetricsAddress(host: String(host), port: port))
    }

    var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

public struct MetricsAddressProblem: Error, CustomStringConvertible {
    var text: String
    public var description: String {
        "'\(text)' is not an address and port for the metrics; give one like 127.0.0.1:9464 (or [::1]:9464; port 0 picks a free one)"
    }
}
