import DenKit

/// What the presenters ask of the interactor. Every call that touches data first reads the
/// logged-in user from the session, at the time of the call: the route guard is the host's, and
/// this is the second lock (no user: `.notLoggedIn`; another user's id: `.notFound`).
///
/// Storage calls block inside the host's call, so every answer is a return value; there is no
/// output protocol back to the presenter.
protocol JogsInteractorInput: AnyObject {
    /// Today, from the injected clock: the new-jog form's default date and the latest allowed.
    var today: Day { get }
    /// The logged-in username.
    func currentUser() throws(JogsProblem) -> String
    /// The user's jogs in `range`, newest first, with their totals.
    func list(_ range: DayRange) throws(JogsProblem) -> JogListing
    /// One of the user's jogs; `.notFound` for an id that is not theirs.
    func jog(id: Int) throws(JogsProblem) -> Jog
    /// Checks the form (`JogValidator`) without storing anything.
    func validate(_ draft: JogDraft) -> Result<JogInput, JogFieldErrors>
    /// Checks and stores a new jog.
    func add(_ draft: JogDraft) throws(JogsProblem) -> Jog
    /// Checks and stores new values for one of the user's jogs.
    func update(id: Int, with draft: JogDraft) throws(JogsProblem) -> Jog
    /// Deletes one of the user's jogs.
    func delete(id: Int) throws(JogsProblem)
    /// Totals per ISO week, newest week first.
    func weeklyReport() throws(JogsProblem) -> JogReport
    /// Reads a date filter from the list's fields or the route's query.
    func filter(from: String, to: String) -> Result<DayRange, DayRangeErrors>
    /// Leaves a message for the list's next appearance in this session (best effort).
    func leaveNotice(_ text: String)
    /// The message left for the list, once; nil when there is none.
    func takeNotice() -> String?
}

/// The list screen's data.
struct JogListing: Equatable, Sendable {
    var user: String
    var range: DayRange
    /// Newest first: by date, then the later-entered first.
    var jogs: [Jog]
    var totals: JogTotals
    /// Stored records that could not be read (they are kept, and the screen says so).
    var unreadable: Int
}

/// The weekly report's data.
struct JogReport: Equatable, Sendable {
    var user: String
    /// Newest week first; only weeks with jogs.
    var weeks: [WeekSummary]
    var unreadable: Int
}
