import DenSupport
import FoundationEssentials

/// The words of the throttle message: when the user may try again, both as a clock time and as a
/// wait, because the user and the host may not share a time zone.
package enum LockoutText {
    package static func message(until: Date, now: Date, fromAddress: Bool = false) -> String {
        let seconds = max(1, Int(until.timeIntervalSince(now).rounded(.up)))
        let wait = seconds < 60 ? (seconds == 1 ? "1 second" : "\(seconds) seconds")
            : { let minutes = (seconds + 59) / 60; return minutes == 1 ? "1 minute" : "\(minutes) minutes" }()
        let what = fromAddress ? "Too many failed logins from your network" : "Too many failed logins for this account"
        return "\(what): try again in \(wait) (after \(UTCTime.hoursAndMinutes(until)) UTC). A device you have logged in from before is not held up."
    }

    /// `retry_after`: rounded up to the whole second, so a client that waits until then is never early.
    package static func iso(_ date: Date) -> String {
        UTCTime.iso8601(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.up)))
    }
}
