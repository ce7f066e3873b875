/// Why the conversion saved at the last quit was not restored. The user is always told: a saved
/// conversion is never replaced by the default without a word.
enum RestoreProblem: Error, Equatable, Sendable {
    /// The saved record could not be read (storage failed, or the record is damaged).
    case unreadable(reason: String)
    /// The record was read but cannot be used with the current rates or input rules.
    case refused(saved: SavedConversion, reason: String)
}
