import DenLibraryContracts
import Foundation
import PostgresNIO

/// Where a PostgreSQL database is, read from a URL as libpq writes it:
/// `postgres://user:password@host:port/database?sslmode=require`. The host may be a unix socket
/// folder (`?host=/run/postgresql`). `description` never shows the password.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// libpq's `sslmode` values den understands (`allow` counts as `prefer`).
    public enum TLSMode: String, Sendable, Equatable {
        case disable, prefer, require, verifyCA = "verify-ca", verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    /// A unix socket folder instead of `host:port` (`?host=/run/postgresql`).
    public var socketFolder: String?
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// `sslrootcert`: the CA certificates (PEM) a server's certificate must chain to.
    public var rootCertificate: String?

    /// Whether `text` is meant as a PostgreSQL URL (the rest is a SQLite data folder).
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Reads `text`; the failure says what is wrong with it and what a good one looks like.
    public init(url text: String) throws(ServiceFailure) {
        let example = "e.g. postgres://den:PASSWORD@db.example.com:5432/den?sslmode=require"
        guard Self.isURL(text), let components = URLComponents(string: text) else {
            throw .invalid("'\(Self.redacted(text))' is not a PostgreSQL URL (\(example))")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let known: Set<String> = ["sslmode", "sslrootcert", "host", "port", "user", "password", "application_name", "connect_timeout"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalid("the PostgreSQL URL has an unknown parameter '\(unknown)'; den understands sslmode, sslrootcert, host, port, user and password")
        }
        socketFolder = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        host = query["host"].flatMap { $0.hasPrefix("/") ? nil : $0 } ?? components.host.map { $0.removingPercentEncoding ?? $0 } ?? ""
        if host.isEmpty && socketFolder == nil { host = "localhost" }
        if let portText = query["port"] {
            guard let port = Int(portText), (1...65535).contains(port) else { throw .invalid("the PostgreSQL URL's port '\(portText)' is not a port number (1-65535)") }
            self.port = port
        } else {
            port = components.port ?? 5432
        }
        user = query["user"] ?? components.percentEncodedUser.map { $0.removingPercentEncoding ?? $0 } ?? ""
        guard !user.isEmpty else { throw .invalid("the PostgreSQL URL names no user (\(example))") }
        password = query["password"] ?? components.percentEncodedPassword.map { $0.removingPercentEncoding ?? $0 }
        let path = (components.percentEncodedPath.removingPercentEncoding ?? components.path)
        database = String(path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else { throw .invalid("the PostgreSQL URL names no database: add it after the host (\(example))") }
        let mode = query["sslmode"] ?? "prefer"
        guard let tls = TLSMode(rawValue: mode == "allow" ? "prefer" : mode) else {
            throw .invalid("the PostgreSQL URL's sslmode '\(mode)' is not one of disable, allow, prefer, require, verify-ca, verify-full")
        }
        self.tls = tls
        rootCertificate = query["sslrootcert"]
    }

    /// `user@host:port/database`, without the password: for messages and logs.
    public var description: String {
        let place = socketFolder.map { "\($0) (unix socket)" } ?? "\(host):\(port)"
        return "\(user)@\(place)/\(database)"
    }

    /// `text` with any password replaced by `***`, for messages about a URL den could not read.
    public static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@"), let scheme = text.range(of: "://"), scheme.upperBound < at,
              let colon = text[scheme.upperBound..<at].firstIndex(of: ":") else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
    }

    /// The client's configuration: TLS as `sslmode` asks, PostgreSQL's own timeouts within `limit`.
    func clientConfiguration(statementLimit limit: Duration) throws(ServiceFailure) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketFolder {
            configuration = .init(unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: try clientTLS())
        }
        let milliseconds = limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000
        // The server cancels a statement or a lock wait that outlasts den's own limit, rolling its
        // transaction back: a slow database fails one call cleanly instead of holding a connection.
        configuration.options.additionalStartupParameters = [
            ("statement_timeout", "\(milliseconds)"), ("lock_timeout", "\(milliseconds)"),
            ("idle_in_transaction_session_timeout", "\(milliseconds * 3)"), ("application_name", "den"),
        ]
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.maximumConnections = 10
        return configuration
    }

    /// A single connection's configuration (the diagnosis when the pool cannot connect).
    func connectionConfiguration() throws(ServiceFailure) -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketFolder {
            configuration = .init(unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            do {
                switch self.tls {
                case .disable: tls = .disable
                case .prefer: tls = .prefer(try NIOSSLContext(configuration: tlsConfiguration()))
                default: tls = .require(try NIOSSLContext(configuration: tlsConfiguration()))
                }
            } catch {
                throw .invalid("the PostgreSQL URL's TLS settings cannot be used: \(error)")
            }
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    private func clientTLS() throws(ServiceFailure) -> PostgresClient.Configuration.TLS {
        switch tls {
        case .disable: return .disable
        case .prefer: return .prefer(tlsConfiguration())
        case .require, .verifyCA, .verifyFull: return .require(tlsConfiguration())
        }
    }

    /// As libpq: `prefer` and `require` encrypt without checking the certificate, `verify-ca`
    /// checks it against the roots, `verify-full` also checks the host name.
    private func tlsConfiguration() -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case .disable, .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let rootCertificate { configuration.trustRoots = .file(rootCertificate) }
        return configuration
    }
}
