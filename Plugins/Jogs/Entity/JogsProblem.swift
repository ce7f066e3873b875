/// Why the interactor could not do what was asked. The presenter turns each into a screen or a
/// message; none of them ever carries another user's data.
enum JogsProblem: Error, Equatable, Sendable {
    /// Nobody is logged in in this UI session.
    case notLoggedIn
    /// No jog with this id belongs to the logged-in user: it never existed, was deleted, or is
    /// someone else's. All three look the same on purpose.
    case notFound(id: Int)
    /// The form's values are refused; one message per field.
    case invalid(JogFieldErrors)
    /// The session or storage service failed; the message says what happened.
    case unavailable(String)
}

/// Messages for refused form values, by field. Each says what was wrong and what to type.
struct JogFieldErrors: Error, Equatable, Sendable {
    var date: String?
    var distance: String?
    var duration: String?

    var isEmpty: Bool { date == nil && distance == nil && duration == nil }
}

/// Messages for a refused date filter, by field.
struct DayRangeErrors: Error, Equatable, Sendable {
    var from: String?
    var to: String?
}
