import CDenCommonPasswords
import DenKit

/// What a new password must not be beyond `AuthRules` (which modules check too): a password on
/// the shipped list of common and breached passwords (OWASP ASVS 2.1.7), or the username.
/// Checked by the host at register, change and reset; the answer is shown to the user as is.
package enum PasswordPolicy {
    /// The shipped list (CDenCommonPasswords), read once on first use.
    package static let common: Set<String> = {
        let bytes = UnsafeBufferPointer(start: den_common_passwords_pointer(), count: den_common_passwords_size)
        return Set(bytes.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) })
    }()

    /// Why `password` cannot be `username`'s new password, or nil. Never quotes the password.
    package static func problem(_ password: String, username: String) -> String? {
        let lowered = password.lowercased()
        if lowered == AuthRules.fold(username).lowercased() {
            return "The password is the same as the username, which is the first thing anyone tries; choose another password."
        }
        if common.contains(lowered) {
            return "That password is on the list of common and breached passwords that attackers try first; choose another (a few unrelated words make a strong one)."
        }
        return nil
    }
}
