#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The routes the Login module serves, and the route strings its Router navigates to.
enum LoginRoutes {
    // The patterns are Manifest/module.json's (`LoginManifest.Routes`, generated).
    /// The login form; the account (log out, change password, go on) when someone is logged in.
    /// The host's route guard opens `login?next=<route>` for a guarded route.
    static let logIn = LoginManifest.Routes.login
    /// Create an account, then go on logged in.
    static let register = LoginManifest.Routes.loginRegister
    /// Set a new password with a token from `den users reset-token <username>`.
    static let reset = LoginManifest.Routes.loginReset
    /// Change the logged-in user's password; guarded (`requiresLogin` in module.json).
    static let changePassword = LoginManifest.Routes.loginPassword

    /// Every page takes the same query key: where to go after logging in.
    static let nextKey = "next"

    static func pattern(for page: LoginPage) -> String {
        switch page {
        case .logIn: logIn
        case .register: register
        case .reset: reset
        case .changePassword: changePassword
        }
    }

    /// The page a matched pattern opens; nil for a pattern this module does not serve.
    static func page(forPattern pattern: String) -> LoginPage? {
        LoginPage.allCases.first { Self.pattern(for: $0) == pattern }
    }

    /// `login/register?next=jogs%2F42`: the page, carrying `next` so the flow ends where it began.
    static func route(for page: LoginPage, next: NextRoute?) -> String {
        guard let next else { return pattern(for: page) }
        return pattern(for: page) + "?\(nextKey)=" + encode(next.route)
    }

    /// Percent-encodes everything but `A-Z a-z 0-9 - . _ ~`, so `/`, `?`, `&` and `%` of the
    /// carried route survive as one query value (the host decodes it once).
    static func encode(_ value: String) -> String {
        var encoded = ""
        for byte in value.utf8 {
            if isUnreserved(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append(contentsOf: ["%", hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        return encoded
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
