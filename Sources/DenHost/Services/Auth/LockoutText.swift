import FoundationEssentials

/// The words of the lockout message: when the user may try again, both as a clock time and as a
/// wait, because the user and the host may not share a time zone.
enum LockoutText {
    static func message(until: Date, now: Date) -> String {
        let minutes = max(1, Int((until.timeIntervalSince(now) / 60).rounded(.up)))
        let wait = minutes == 1 ? "1 minute" : "\(minutes) minutes"
        return "Too many failed logins: this account is locked. Try again in \(wait) (after \(UTCTime.hoursAndMinutes(until)) UTC), or ask an administrator to run `den users unlock`."
    }

    /// `retry_after`: rounded up to the whole second, so a client that waits until then is never early.
    static func iso(_ date: Date) -> String {
        UTCTime.iso8601(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.up)))
    }
}
