import DenKit
import Foundation
@testable import JogsModule
import Testing

/// Jogs' `weekly_totals` export: the session's user's weeks only, and a clear refusal otherwise.
@Suite("Jogs' weekly_totals export")
struct JogsExportsTests {
    let store = InMemoryKeyValueStore()

    func add(_ date: String, _ distance: String, _ duration: String, as user: String) throws {
        let interactor = JogsInteractor(repository: StorageJogRepository(store), users: SessionCurrentUser(session: InMemorySessionValues([SessionLimits.userKey: user])),
                                        clock: FixedClock())
        _ = try interactor.add(JogDraft(date: date, distance: distance, duration: duration))
    }

    func totals(user: String?) throws -> WeeklyTotalsDocument {
        let text = try JogsExports(dependencies: dependencies(store, user: user)).weeklyTotals()
        return try JSONDecoder().decode(WeeklyTotalsDocument.self, from: Data(text.utf8))
    }

    @Test("the logged-in user's weeks, newest first, with sums and pace; never another user's")
    func ownWeeks() throws {
        try add("2026-03-02", "5", "30:00", as: "alice")
        try add("2026-03-04", "10", "55:00", as: "alice")
        try add("2026-03-10", "3", "18:00", as: "alice")
        try add("2026-03-03", "42.195", "3:30:00", as: "bob")

        let alice = try totals(user: "alice")
        #expect(alice.user == "alice")
        #expect(alice.weeks.map(\.week) == ["2026-W11", "2026-W10"])
        let week10 = try #require(alice.weeks.last)
        #expect(week10 == .init(week: "2026-W10", from: "2026-03-02", to: "2026-03-08", jogs: 2,
                                distanceMetres: 15000, durationSeconds: 5100, paceSecondsPerKm: 340))
        #expect(try totals(user: "bob").weeks.map(\.distanceMetres) == [42195])
    }

    @Test("the JSON keys are the documented ones")
    func documentKeys() throws {
        try add("2026-03-02", "5", "30:00", as: "alice")
        let text = try JogsExports(dependencies: dependencies(store, user: "alice")).weeklyTotals()
        #expect(text == #"{"unreadable":0,"user":"alice","weeks":[{"distance_m":5000,"duration_s":1800,"from":"2026-03-02","jogs":1,"pace_s_per_km":360,"to":"2026-03-08","week":"2026-W10"}]}"#)
    }

    @Test("nobody logged in: DEN_ERR_NOT_FOUND saying to log in")
    func nobody() {
        #expect {
            _ = try totals(user: nil)
        } throws: { error in
            guard let failure = error as? ExportFailure else { return false }
            return failure.status == 2 && failure.message.contains("log in first")
        }
    }

    @Test("a call outside a UI session (den call) is refused, saying where to call it from")
    func outsideSession() {
        var deps = dependencies(store, user: nil)
        deps.session = NoSessionValues()
        #expect {
            _ = try JogsExports(dependencies: deps).weeklyTotals()
        } throws: { error in
            guard let failure = error as? ExportFailure else { return false }
            return failure.status == 1 && failure.message.contains("this call has none (den call")
        }
    }
}

/// What the host's session service answers a call that belongs to no UI session.
private struct NoSessionValues: SessionValues {
    func get(_ key: String) throws -> String? {
        throw HostServiceError(service: "session.get", status: 1, message: "session.get: this call was not made from a builder or handle call, so it belongs to no UI session")
    }
    func set(_ value: String, forKey key: String) throws {}
    func delete(_ key: String) throws -> Bool { false }
}
