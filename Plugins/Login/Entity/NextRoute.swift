import DenKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where to go after logging in: the `next` of `login?next=jogs`, which the host's route guard
/// sets to the route the user asked for.
///
/// Only a plain route string of this app is accepted, so a crafted link cannot send the user
/// anywhere else or back into the login form: a path of non-empty segments, with an optional
/// query, at most 2048 bytes; no white space or control characters; no scheme (`https:`,
/// `javascript:`), no leading or doubled `/`, no `.` or `..` segment (also percent-encoded), no
/// fragment, only well-formed `%XX` escapes; and not a page of the login form itself. The one
/// login page that may follow a login is `login/password`, the guarded page the host sends
/// a logged-out user from.
struct NextRoute: Equatable, Sendable {
    /// The route string, as the Router navigates to it.
    let route: String

    /// Where a login goes when there is no (usable) `next`.
    static let fallback = "main"
    /// The host's route limit.
    static let maximumBytes = 2048

    /// Why a `next` value was refused.
    enum Problem: Error, Equatable, Sendable {
        /// Not a route of this app; `reason` says what is wrong with it.
        case notARoute(reason: String)
        /// A page of the login form, which would only show the form again.
        case loginForm
    }

    /// A route the module made itself (`LoginRoutes`), known to be plain.
    init(trusted route: String) {
        self.route = route
    }

    /// The `next` to use for `raw`: nil when it is missing or empty (go to `fallback`); throws
    /// when it is there but unsafe.
    static func parse(_ raw: String?) throws(Problem) -> NextRoute? {
        guard let raw, !raw.isEmpty else { return nil }
        if let reason = problem(with: raw) { throw .notARoute(reason: reason) }
        if isLoginForm(raw) { throw .loginForm }
        return NextRoute(trusted: raw)
    }

    // MARK: - Rules

    /// Characters a URL never carries unescaped (RFC 3986), plus `#`: a route has no fragment.
    private static let forbidden: Set<Unicode.Scalar> = ["#", "\\", "\"", "<", ">", "`", "{", "}", "|", "^"]

    private static func problem(with raw: String) -> String? {
        if raw.utf8.count > maximumBytes { return "it is longer than a route can be (\(maximumBytes) bytes)" }
        for scalar in raw.unicodeScalars {
            if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .format {
                return "it contains a space or a control character"
            }
            if forbidden.contains(scalar) { return "it contains '\(scalar)', which no route has" }
        }
        let path = raw.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        if path.isEmpty { return "it has no path" }
        if path.hasPrefix("/") { return "a route does not start with '/'" }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        if segments[0].contains(":") { return "it starts with a scheme, like a web address" }
        if segments.contains(where: \.isEmpty) { return "it has an empty path segment ('//' or a trailing '/')" }
        guard hasWellFormedEscapes(raw) else { return "it has a '%' that is not followed by two hex digits" }
        for segment in segments {
            let decoded = PercentDecoding.decode(segment) ?? String(segment)
            if decoded == "." || decoded == ".." { return "it has a '.' or '..' segment" }
        }
        return nil
    }

    private static func hasWellFormedEscapes(_ raw: String) -> Bool {
        let bytes = Array(raw.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
                index += 3
            } else {
                index += 1
            }
        }
        return true
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// `login`, `login/register`, `login/reset` (any case, escaped or not), but not `login/password`.
    private static func isLoginForm(_ raw: String) -> Bool {
        let path = raw.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let segments = path.split(separator: "/").map { (PercentDecoding.decode($0) ?? String($0)).lowercased() }
        guard segments.first == "login" else { return false }
        return segments != ["login", "password"]
    }
}

extension NextRoute.Problem: CustomStringConvertible {
    var description: String {
        switch self {
        case .notARoute(let reason): reason
        case .loginForm: "it is a page of the login form"
        }
    }
}
