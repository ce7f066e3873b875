import FoundationEssentials

/// The wait after failed logins (OWASP: throttle with growing delays rather than lock): none
/// for the first `free` failures, then 30 s, doubling with each further failure, never more than
/// `longest`. A lock would hand anyone who knows a username a way to keep its owner out; a delay
/// only makes guessing slow. With the defaults (5 free, 15 minutes longest) an attacker gets
/// about 12 guesses in the first hour at one account and 4 an hour after that.
package enum LoginDelay {
    package static let first: TimeInterval = 30

    /// The wait after `failures` failures in a row, nil while there is none.
    package static func after(failures: Int, free: Int, longest: TimeInterval) -> TimeInterval? {
        guard failures >= free else { return nil }
        let doublings = min(failures - free, 30)
        return min(longest, first * Double(1 << doublings))
    }
}
