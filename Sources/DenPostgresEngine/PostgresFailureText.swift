import DenLibraryContracts
import PostgresNIO

/// Turns postgres-nio's errors into `ServiceFailure`s that name the database (never its
/// password) and say what to do. Every message is here, so they read alike.
struct PostgresFailureText: Sendable {
    let location: PostgresLocation
    /// How long den waits for one call (`PostgresStorageEngine.callLimit`).
    let limit: Duration

    private var seconds: String {
        let whole = limit.components.seconds
        return limit == .seconds(whole) ? "\(whole)" : "\(Double(limit.components.attoseconds) / 1e18 + Double(whole))"
    }

    /// `error` raised while doing `action` ("save to", "read from"); `writing` adds what became
    /// of the change.
    func failure(_ error: any Error, doing action: String, writing: Bool) -> ServiceFailure {
        let error = Self.cause(error)
        let outcome = writing ? " Nothing was written." : ""
        let place = "PostgreSQL at \(location)"
        if error is BlockingTimeout {
            return .unavailable("storage: could not \(action) \(place): it did not answer within \(seconds) s (the server is slow, overloaded or unreachable).\(outcome) Check the database server; den tries again on the next call.")
        }
        if let failure = error as? ServiceFailure { return failure }
        guard let error = error as? PSQLError else {
            return .unavailable("storage: could not \(action) \(place): \(error).\(outcome) Check the database server and --database / DEN_DATABASE_URL.")
        }
        switch error.code {
        case .server:
            return serverFailure(error, action: action, place: place, outcome: outcome)
        case .connectionError:
            let reason = error.underlying.map { Self.connectReason($0) } ?? "no connection"
            return .unavailable("storage: could not \(action) \(place): den cannot connect (\(reason)).\(outcome) Start the database or check the host and port in --database / DEN_DATABASE_URL; den connects again on the next call.")
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
            let unsure = writing ? " A change PostgreSQL had not committed was rolled back whole; one it had committed is kept." : ""
            return .unavailable("storage: could not \(action) \(place): the connection was lost in the middle of the call (the server stopped or the network failed).\(unsure) Check the database server; den connects again on the next call.")
        case .queryCancelled:
            return .unavailable("storage: could not \(action) \(place): it did not answer within \(seconds) s.\(outcome) Check the database server; den tries again on the next call.")
        case .sslUnsupported:
            return .unavailable("storage: could not \(action) \(place): the server does not offer TLS, but the URL's sslmode requires it.\(outcome) Enable ssl on the server, or use sslmode=prefer or disable.")
        case .authMechanismRequiresPassword:
            return .unavailable("storage: could not \(action) \(place): the server asks for a password and the URL has none.\(outcome) Put it in the URL (postgres://user:password@host/db), or in DEN_DATABASE_URL to keep it off the command line.")
        case .unsupportedAuthMechanism, .saslError:
            return .unavailable("storage: could not \(action) \(place): den cannot log in with the server's authentication method (\(String(reflecting: error.code))).\(outcome) Use scram-sha-256, md5 or password authentication for this user in pg_hba.conf.")
        case .poolClosed:
            return .unavailable("storage: could not \(action) \(place): den is shutting down its connections.\(outcome)")
        default:
            return .unavailable("storage: could not \(action) \(place): \(String(reflecting: error.code)).\(outcome) Check the database server.")
        }
    }

    private func serverFailure(_ error: PSQLError, action: String, place: String, outcome: String) -> ServiceFailure {
        let state = error.serverInfo?[.sqlState] ?? ""
        let said = error.serverInfo?[.message] ?? "no message"
        switch state {
        case "28P01", "28000":
            return .unavailable("storage: could not \(action) \(place): the server refused den's login (\(said)).\(outcome) Check the user and password in --database / DEN_DATABASE_URL.")
        case "3D000":
            return .unavailable("storage: could not \(action) \(place): \(said).\(outcome) Create it (createdb \(location.database)) or name another database in the URL.")
        case "53100":
            return .unavailable("storage: could not \(action) \(place): the database server's disk is full (\(said)).\(outcome) Free space on the database server; den tries again on the next call.")
        case "53300", "53400":
            return .unavailable("storage: could not \(action) \(place): the server accepts no more connections (\(said)).\(outcome) Raise max_connections or lower the number of den hosts; den tries again on the next call.")
        case "57014", "55P03":
            return .unavailable("storage: could not \(action) \(place): it did not finish within \(seconds) s (the server is slow, or another session holds a lock) (\(said)).\(outcome) den tries again on the next call.")
        case "57P01", "57P02", "57P03":
            return .unavailable("storage: could not \(action) \(place): the server is shutting down or starting up (\(said)).\(outcome) den connects again on the next call.")
        case "25006":
            return .unavailable("storage: could not \(action) \(place): the server is read-only (\(said): a standby, or default_transaction_read_only).\(outcome) Point den at the primary.")
        case "42501":
            return .unavailable("storage: could not \(action) \(place): the user \(location.user) may not do this (\(said)).\(outcome) Grant it the rights on the database (den creates its tables itself), or use the owner.")
        case let state where state.hasPrefix("23"):
            return .invalid("storage: could not \(action) \(place): \(said); nothing was written")
        default:
            return .unavailable("storage: could not \(action) \(place): \(said) (SQLSTATE \(state)).\(outcome) Check the database server's log.")
        }
    }

    /// The error inside a transaction's wrapper (the statement's, else the commit's or begin's).
    static func cause(_ error: any Error) -> any Error {
        guard let wrapped = error as? PostgresTransactionError else { return error }
        return wrapped.closureError ?? wrapped.commitError ?? wrapped.beginError ?? wrapped.rollbackError ?? error
    }

    /// What the socket said, in words ("connection refused").
    static func connectReason(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("refused") { return "connection refused" }
        if text.lowercased().contains("timeout") || text.contains("timed out") { return "the connection timed out" }
        if text.contains("resolve") || text.contains("NXDOMAIN") || text.contains("unknown host") { return "the host name does not resolve" }
        return text
    }
}
