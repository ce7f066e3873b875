import DenKit
import Foundation
import Testing
@testable import JogsModule

/// The interactor over a real `StorageJogRepository` on an `InMemoryKeyValueStore`, with the
/// logged-in user set per test: what the module does with the host's services.
@Suite("Jogs interactor")
struct JogsInteractorTests {
    let store = InMemoryKeyValueStore()

    func interactor(user: String?, store: (any KeyValueStore)? = nil, today: Day = fixedToday) -> JogsInteractor {
        let session = InMemorySessionValues(user.map { [SessionLimits.userKey: $0] } ?? [:])
        return JogsInteractor(repository: StorageJogRepository(store ?? self.store), users: SessionCurrentUser(session: session),
                              clock: FixedClock(day: today))
    }

    func draft(_ date: String, _ distance: String, _ duration: String) -> JogDraft {
        JogDraft(date: date, distance: distance, duration: duration)
    }

    @Test("adds jogs with ids 1, 2, 3 and lists them newest first with totals")
    func addAndList() throws {
        let alice = interactor(user: "alice")
        let first = try alice.add(draft("2026-03-01", "5", "30:00"))
        let second = try alice.add(draft("2026-03-10", "10", "55:00"))
        let third = try alice.add(draft("2026-03-01", "3", "18:00"))
        let ids: [Int] = [first.id, second.id, third.id]
        #expect(ids == [1, 2, 3])

        let listing = try alice.list(.everything)
        // Newest date first; on the same day the later entry first.
        #expect(listing.jogs.map(\.id) == [2, 3, 1])
        #expect(listing.user == "alice")
        #expect(listing.totals == JogTotals(listing.jogs))
        #expect(listing.totals.distanceMetres == 18_000)
        #expect(listing.totals.durationSeconds == 6180)
    }

    @Test("another user's jog is not found: read, edit and delete alike, and it stays untouched")
    func ownerOnly() throws {
        let alice = interactor(user: "alice")
        let hers = try alice.add(draft("2026-03-01", "5", "30:00"))
        let bob = interactor(user: "bob")

        #expect(throws: JogsProblem.notFound(id: hers.id)) { try bob.jog(id: hers.id) }
        #expect(throws: JogsProblem.notFound(id: hers.id)) { try bob.update(id: hers.id, with: draft("2026-03-02", "1", "5:00")) }
        #expect(throws: JogsProblem.notFound(id: hers.id)) { try bob.delete(id: hers.id) }
        #expect(try bob.list(.everything).jogs.isEmpty)
        #expect(try bob.weeklyReport().weeks.isEmpty)
        // The very same answer as for an id nobody has.
        #expect(throws: JogsProblem.notFound(id: 999)) { try bob.jog(id: 999) }

        #expect(try alice.jog(id: hers.id) == hers)
        // Bob's own first jog gets his own id 1: ids are per user.
        #expect(try bob.add(draft("2026-03-03", "2", "12:00")).id == 1)
        #expect(try alice.list(.everything).jogs == [hers])
    }

    @Test("with nobody logged in every call is refused and reads nothing")
    func notLoggedIn() throws {
        let spy = SpyKeyValueStore(store)
        _ = try interactor(user: "alice").add(draft("2026-03-01", "5", "30:00"))
        let nobody = interactor(user: nil, store: spy)
        #expect(throws: JogsProblem.notLoggedIn) { try nobody.currentUser() }
        #expect(throws: JogsProblem.notLoggedIn) { try nobody.list(.everything) }
        #expect(throws: JogsProblem.notLoggedIn) { try nobody.jog(id: 1) }
        #expect(throws: JogsProblem.notLoggedIn) { try nobody.add(draft("2026-03-01", "5", "30:00")) }
        #expect(throws: JogsProblem.notLoggedIn) { try nobody.update(id: 1, with: draft("2026-03-01", "5", "30:00")) }
        #expect(throws: JogsProblem.notLoggedIn) { try nobody.delete(id: 1) }
        #expect(throws: JogsProblem.notLoggedIn) { try nobody.weeklyReport() }
        #expect(spy.calls.isEmpty, "no storage call without a user: \(spy.calls)")
    }

    @Test("a session that cannot be read, or a user name that is not one, shows no jogs")
    func strangeSessions() throws {
        _ = try interactor(user: "alice").add(draft("2026-03-01", "5", "30:00"))
        let broken = JogsInteractor(repository: StorageJogRepository(store), users: SessionCurrentUser(session: BrokenSession()),
                                    clock: FixedClock())
        let error = #expect(throws: JogsProblem.self) { try broken.list(.everything) }
        guard case .unavailable(let message)? = error else { Issue.record("expected unavailable, got \(String(describing: error))"); return }
        #expect(message.contains("could not tell who is logged in"))

        // "alice/../bob" would be another key prefix; "Alice" is not the folded name the host sets.
        for name in ["alice/../bob", "Alice", "", "a"] {
            let odd = interactor(user: name)
            #expect(throws: JogsProblem.self) { try odd.list(.everything) }
        }
    }

    @Test("the date filter keeps the jogs from..to, both days included")
    func filter() throws {
        let alice = interactor(user: "alice")
        for date in ["2025-12-31", "2026-01-01", "2026-01-15", "2026-01-31", "2026-02-01"] {
            _ = try alice.add(draft(date, "5", "30:00"))
        }
        let january = try #require(try? alice.filter(from: "2026-01-01", to: "2026-01-31").get())
        #expect(try alice.list(january).jogs.map(\.date.description) == ["2026-01-31", "2026-01-15", "2026-01-01"])
        #expect(try alice.list(january).totals.count == 3)
        let fromFebruary = try #require(try? alice.filter(from: "2026-02-01", to: "").get())
        #expect(try alice.list(fromFebruary).jogs.map(\.date.description) == ["2026-02-01"])
        let untilNewYear = try #require(try? alice.filter(from: "", to: "2025-12-31").get())
        #expect(try alice.list(untilNewYear).jogs.map(\.date.description) == ["2025-12-31"])
        #expect(try alice.list(.everything).jogs.count == 5)
    }

    @Test("a refused filter says which end is wrong and why")
    func refusedFilter() {
        let alice = interactor(user: "alice")
        #expect(alice.filter(from: "2026-02-30", to: "").failure
                == DayRangeErrors(from: "From: '2026-02-30' is not a day of the calendar; check the month and the day.", to: nil))
        #expect(alice.filter(from: "", to: "jan").failure
                == DayRangeErrors(from: nil, to: "To: 'jan' is not a date: type YYYY-MM-DD, e.g. 2026-01-31."))
        #expect(alice.filter(from: "2026-01-31", to: "2026-01-01").failure
                == DayRangeErrors(from: nil, to: "To: 2026-01-01 is before From, 2026-01-31; swap the two dates."))
        #expect(alice.filter(from: " ", to: "") == .success(.everything))
        #expect(alice.filter(from: "2026-01-01", to: "2026-01-01") == .success(DayRange(from: day("2026-01-01"), to: day("2026-01-01"))))
    }

    @Test("invalid forms are refused with every field's message and store nothing")
    func invalid() throws {
        let alice = interactor(user: "alice")
        let error = #expect(throws: JogsProblem.self) { try alice.add(draft("2026-03-16", "0", "abc")) }
        guard case .invalid(let errors)? = error else { Issue.record("expected invalid, got \(String(describing: error))"); return }
        #expect(errors.date?.contains("in the future") == true)
        #expect(errors.distance?.contains("more than 0 km") == true)
        #expect(errors.duration?.contains("not a duration") == true)
        #expect(store.entries.isEmpty, "nothing stored, not even an id")
    }

    @Test("update replaces the values and keeps the id; delete removes the jog")
    func updateAndDelete() throws {
        let alice = interactor(user: "alice")
        let created = try alice.add(draft("2026-03-01", "5", "30:00"))
        let changed = try alice.update(id: created.id, with: draft("2026-03-02", "6.5", "1:00:00"))
        #expect(changed == Jog(id: created.id, date: day("2026-03-02"), distanceMetres: 6500, durationSeconds: 3600))
        #expect(try alice.jog(id: created.id) == changed)
        try alice.delete(id: created.id)
        #expect(throws: JogsProblem.notFound(id: created.id)) { try alice.jog(id: created.id) }
        #expect(throws: JogsProblem.notFound(id: created.id)) { try alice.delete(id: created.id) }
        // A deleted id is never handed out again.
        #expect(try alice.add(draft("2026-03-03", "1", "6:00")).id == created.id + 1)
    }

    @Test("a storage failure is a message saying nothing was changed, never a crash")
    func storageFailure() throws {
        let spy = SpyKeyValueStore(store)
        spy.fail("list")
        spy.fail("transaction")
        let alice = interactor(user: "alice", store: spy)
        let readError = #expect(throws: JogsProblem.self) { try alice.list(.everything) }
        #expect(readError == .unavailable("Your jogs could not be read: storage.list: the disk is full. Nothing was changed; try again."))
        let writeError = #expect(throws: JogsProblem.self) { try alice.add(draft("2026-03-01", "5", "30:00")) }
        #expect(writeError == .unavailable("Could not save the new jog: storage.transaction: the disk is full. Nothing was changed; try again."))
        #expect(spy.inner.entries.allSatisfy { !$0.key.hasPrefix("user/alice/jogs/") }, "no jog was half-written")
    }

    @Test("two sessions adding at once never get the same id")
    func concurrentAdds() throws {
        // Two UI sessions of the same user: two interactors over one store (the host's storage).
        let sessions = Unchecked([interactor(user: "alice"), interactor(user: "alice")])
        let failures = LockedCount()
        let form = draft("2026-03-01", "5", "30:00")
        DispatchQueue.concurrentPerform(iterations: 60) { index in
            do {
                _ = try sessions.value[index % 2].add(form)
            } catch {
                failures.add()
            }
        }
        #expect(failures.value == 0)
        let ids = try sessions.value[0].list(.everything).jogs.map(\.id)
        #expect(ids.count == 60)
        #expect(Set(ids) == Set(1...60))
    }
}

final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Hands objects to `concurrentPerform`; the test makes sure they are safe to share.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
