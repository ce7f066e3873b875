#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A password or reset token as typed into a form.
///
/// Its text is reachable only through `revealed`, which the interactor reads to call the `auth`
/// service. Every other way of turning it into text (`description`, `debugDescription`,
/// `dump`, `Mirror`) gives "•••", so interpolating a form or a request into a message or a log
/// line can never leak what the user typed.
struct Secret: Equatable, Sendable, ExpressibleByStringLiteral {
    private let value: String

    init(_ value: String) {
        self.value = value
    }

    init(stringLiteral value: String) {
        self.init(value)
    }

    static let empty = Secret("")

    /// The text itself: only for the auth service call.
    var revealed: String { value }

    var isEmpty: Bool { value.isEmpty }

    /// Length in Unicode code points, as `AuthRules` and the host count a password.
    var length: Int { value.unicodeScalars.count }

    /// Without surrounding white space: a pasted token often brings a newline or spaces along.
    /// (Passwords are never trimmed: a space may be part of one.)
    func trimmed() -> Secret {
        Secret(value.trimmingWhitespace())
    }
}

extension Secret: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    var description: String { "•••" }
    var debugDescription: String { "Secret(•••)" }
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
