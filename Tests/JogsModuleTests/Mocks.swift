import DenKit
import Foundation
import Testing
@testable import JogsModule

/// An interactor whose answers the test sets; records what the presenter asked.
final class MockJogsInteractor: JogsInteractorInput {
    var today: Day = fixedToday
    var user: String? = "alice"
    var jogs: [Jog] = []
    /// Thrown by every data call when set (after the user check).
    var failure: JogsProblem?
    private(set) var added: [JogDraft] = []
    private(set) var updated: [(id: Int, draft: JogDraft)] = []
    private(set) var deleted: [Int] = []
    private(set) var listed: [DayRange] = []
    /// What `leaveNotice` was given and `takeNotice` hands out once.
    var notice: String?

    func leaveNotice(_ text: String) { notice = text }

    func takeNotice() -> String? {
        defer { notice = nil }
        return notice
    }

    func currentUser() throws(JogsProblem) -> String {
        guard let user else { throw .notLoggedIn }
        return user
    }

    func list(_ range: DayRange) throws(JogsProblem) -> JogListing {
        let user = try checked()
        listed.append(range)
        let shown = jogs.filter { range.contains($0.date) }.sorted(by: JogsInteractor.newestFirst)
        return JogListing(user: user, range: range, jogs: shown, totals: JogTotals(shown), unreadable: 0)
    }

    func jog(id: Int) throws(JogsProblem) -> Jog {
        _ = try checked()
        guard let jog = jogs.first(where: { $0.id == id }) else { throw .notFound(id: id) }
        return jog
    }

    func validate(_ draft: JogDraft) -> Result<JogInput, JogFieldErrors> {
        JogValidator(today: today).validate(draft)
    }

    func add(_ draft: JogDraft) throws(JogsProblem) -> Jog {
        _ = try checked()
        added.append(draft)
        guard case .success(let input) = validate(draft) else {
            if case .failure(let errors) = validate(draft) { throw .invalid(errors) }
            throw .invalid(JogFieldErrors())
        }
        let jog = input.jog(id: (jogs.map(\.id).max() ?? 0) + 1)
        jogs.append(jog)
        return jog
    }

    func update(id: Int, with draft: JogDraft) throws(JogsProblem) -> Jog {
        _ = try checked()
        updated.append((id, draft))
        guard let index = jogs.firstIndex(where: { $0.id == id }) else { throw .notFound(id: id) }
        switch validate(draft) {
        case .success(let input):
            jogs[index] = input.jog(id: id)
            return jogs[index]
        case .failure(let errors):
            throw .invalid(errors)
        }
    }

    func delete(id: Int) throws(JogsProblem) {
        _ = try checked()
        guard let index = jogs.firstIndex(where: { $0.id == id }) else { throw .notFound(id: id) }
        deleted.append(id)
        jogs.remove(at: index)
    }

    func weeklyReport() throws(JogsProblem) -> JogReport {
        let user = try checked()
        return JogReport(user: user, weeks: WeeklyReport.summarize(jogs), unreadable: 0)
    }

    func filter(from: String, to: String) -> Result<DayRange, DayRangeErrors> {
        DayRangeParser.parse(from: from, to: to)
    }

    private func checked() throws(JogsProblem) -> String {
        let user = try currentUser()
        if let failure { throw failure }
        return user
    }
}

final class MockJogsRouter: JogsRouterInput {
    private(set) var shownJogs: [Int] = []
    private(set) var closed = 0

    func showSavedJog(id: Int) { shownJogs.append(id) }
    func closeDeletedJog() { closed += 1 }
}

final class MockJogsPresenter: JogsPresenterInput {
    weak var view: (any JogsViewInput)?
    var state = JogsScreenState(screen: .new)
    private(set) var appeared = 0
    private(set) var triggered: [(JogsAction, JogsFormInput)] = []
    private(set) var changes: [(String, JogsFormInput)] = []
    private(set) var restored: [JogsScreenState] = []

    func viewDidAppear() { appeared += 1 }
    func didTrigger(_ action: JogsAction, form: JogsFormInput) { triggered.append((action, form)) }
    func didChange(field: String, form: JogsFormInput) { changes.append((field, form)) }
    func restore(_ state: JogsScreenState) throws { restored.append(state) }
}

/// Records every screen a presenter displays.
final class MockJogsView: JogsViewInput {
    private(set) var displayed: [JogsScreenViewObject] = []

    func display(_ viewObject: JogsScreenViewObject) { displayed.append(viewObject) }
}

extension JogsPresenterInput {
    /// What the presenter displayed last in its `MockJogsView` (the test keeps the view alive);
    /// records an issue when it displayed nothing.
    var shown: JogsScreenViewObject {
        guard let last = (view as? MockJogsView)?.displayed.last else {
            Issue.record("the presenter displayed nothing in a MockJogsView")
            return .message(JogsMessages.loading)
        }
        return last
    }
}

/// A `KeyValueStore` that records every call (over an in-memory store) and can be told to fail.
final class SpyKeyValueStore: KeyValueStore, @unchecked Sendable {
    enum Call: Equatable {
        case get(String), set(String), delete(String), list(String), transaction([StorageOperation]), increment(String)
    }

    let inner: InMemoryKeyValueStore
    private let lock = NSLock()
    private var recorded: [Call] = []
    private var failing: Set<String> = []

    init(_ inner: InMemoryKeyValueStore = InMemoryKeyValueStore()) {
        self.inner = inner
    }

    var calls: [Call] { lock.withLock { recorded } }
    /// The calls that change something.
    var writes: [Call] {
        calls.filter { if case .get = $0 { false } else if case .list = $0 { false } else { true } }
    }

    /// Makes every call of `operation` ("get", "list", "transaction", ...) throw.
    func fail(_ operation: String) { lock.withLock { _ = failing.insert(operation) } }

    private func record(_ call: Call, _ operation: String) throws {
        try lock.withLock {
            recorded.append(call)
            if failing.contains(operation) { throw TestFailure("storage.\(operation): the disk is full") }
        }
    }

    func get(_ key: String) throws -> String? { try record(.get(key), "get"); return try inner.get(key) }
    func set(_ value: String, forKey key: String) throws { try record(.set(key), "set"); try inner.set(value, forKey: key) }
    func delete(_ key: String) throws -> Bool { try record(.delete(key), "delete"); return try inner.delete(key) }
    func list(prefix: String) throws -> [StorageEntry] { try record(.list(prefix), "list"); return try inner.list(prefix: prefix) }
    func transaction(_ operations: [StorageOperation]) throws {
        try record(.transaction(operations), "transaction")
        try inner.transaction(operations)
    }
    func increment(_ key: String) throws -> Int { try record(.increment(key), "increment"); return try inner.increment(key) }
}

/// A session whose reads fail, as when the host refuses `session.get`.
struct BrokenSession: SessionValues {
    func get(_ key: String) throws -> String? { throw TestFailure("session.get: no UI session is bound to this call") }
    func set(_ value: String, forKey key: String) throws {}
    func delete(_ key: String) throws -> Bool { false }
}
