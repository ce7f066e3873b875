import Hummingbird

/// `den_device`: the device tokens (`DeviceTokens` in DenHost, signed there) of the accounts
/// this browser logged in to, so those accounts' login delays do not hold it up. Kept a year;
/// at most `maxTokens`, the newest last.
enum DeviceCookie {
    static let name = "den_device"
    static let maxTokens = 5
    static let separator: Character = "~"

    static func tokens(in request: Request) -> [String] {
        guard let value = SessionCookie.value(named: name, in: request), value.utf8.count <= 2048 else { return [] }
        return value.split(separator: separator).prefix(maxTokens).map(String.init)
    }

    /// The cookie with `token` added (replacing an older token of the same account).
    static func cookie(adding token: String, to tokens: [String], secure: Bool) -> Cookie {
        let account = token.prefix { $0 != ":" }
        let kept = tokens.filter { $0.prefix { $0 != ":" } != account }.suffix(maxTokens - 1) + [token]
        return Cookie(name: name, value: kept.joined(separator: String(separator)), maxAge: 365 * 24 * 3600, path: "/",
                      secure: secure, httpOnly: true, sameSite: .lax)
    }
}

/// The client's address for throttling and the audit log: the peer's, or with `--trust-proxy`
/// the last `X-Forwarded-For` entry (the one the proxy in front of den added; anything before it
/// the client could have written itself).
enum ClientAddress {
    static func of(_ request: Request, peer: String?, trustProxy: Bool) -> String {
        if trustProxy, let forwarded = request.headers[values: .xForwardedFor].last?.split(separator: ",").last {
            let address = forwarded.trimmingCharacters(in: .whitespaces)
            if !address.isEmpty, address.utf8.count <= 64 { return address }
        }
        return peer ?? "unknown"
    }
}
