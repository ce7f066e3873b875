import DenKit
import Foundation

// Thin adapters from the interactor's own service protocols to DenKit's host clients.

/// `CurrentUserProviding` over the host's `session` service (key `user`).
struct SessionCurrentUser: CurrentUserProviding {
    let session: any SessionValues

    func username() throws -> String? {
        try session.loggedInUser()
    }
}

/// `JogsNoticeBoard` over the host's `session` service.
struct SessionNoticeBoard: JogsNoticeBoard {
    static let key = "jogs.notice"
    let session: any SessionValues

    func leave(_ text: String) throws {
        try session.set(text, forKey: Self.key)
    }

    func take() throws -> String? {
        guard let text = try session.get(Self.key) else { return nil }
        try session.delete(Self.key)
        return text
    }
}

/// Today in the machine's time zone: a run at 23:30 belongs to that evening's date.
struct SystemJogsClock: JogsClock {
    var now: @Sendable () -> Date = { Date() }
    var timeZone: TimeZone = .current

    func today() -> Day {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: now())
        return Day(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1) ?? Day(dayNumber: 0)!
    }
}
