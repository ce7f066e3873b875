#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The rules for usernames and passwords, shared by the host's `auth` service (which enforces
/// them) and modules (which may check a form before calling). docs/ABI.md states the same rules.
public enum AuthRules {
    /// Usernames: 3 to 32 characters of `a-z`, `0-9`, `.`, `_` and `-`. Upper-case A-Z is folded
    /// to lower case first, so "Alice" and "alice" are the same user. Kept this narrow so a
    /// username is safe in a storage key (`user/<username>/`), a log line and a URL.
    public static let usernameRule = "3 to 32 characters of a-z, 0-9, '.', '_' and '-' (A-Z is folded to lower case)"
    public static let usernameLength = 3...32
    /// Passwords: 8 to 1024 Unicode characters (code points, as JSON Schema counts them). The
    /// upper bound keeps one login from costing the host more than hashing 4 KiB.
    public static let passwordLength = 8...1024
    public static let passwordRule = "8 to 1024 characters, not only spaces"

    /// `name` folded to the stored form ("Alice" → "alice"); the rule is checked by `usernameProblem`.
    public static func fold(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
            ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
        }))
    }

    /// Why `name` is not a valid username (after folding), or nil when it is.
    public static func usernameProblem(_ name: String) -> String? {
        let folded = fold(name)
        let allowed = folded.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "." || scalar == "_" || scalar == "-"
        }
        guard allowed, usernameLength.contains(folded.unicodeScalars.count) else {
            return "the username must be \(usernameRule)"
        }
        return nil
    }

    /// Why `password` cannot be a new password, or nil. Never quotes the password.
    public static func passwordProblem(_ password: String) -> String? {
        let count = password.unicodeScalars.count
        if count < passwordLength.lowerBound {
            return "the password is \(count) character\(count == 1 ? "" : "s") long; use at least \(passwordLength.lowerBound) characters"
        }
        if count > passwordLength.upperBound {
            return "the password is \(count) characters long; use at most \(passwordLength.upperBound) characters"
        }
        // Spaces alone look like an empty field to whoever types them; refuse them as one.
        if password.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) {
            return "the password is only spaces; use letters, digits or symbols too"
        }
        return nil
    }
}
