import DenKit

/// The Jogs module's logic: whose jogs (the session's user, read at every call), the form rules
/// (`JogValidator`), the date filter, the list order, totals and the weekly report. Knows
/// nothing of display. Storage calls block inside the host's call, so every answer is a return
/// value: it has no output (`ModuleInteractor.Output` is `Never`).
final class JogsInteractor: JogsInteractorInput, ModuleInteractor {
    typealias Output = Never

    private let repository: any JogRepository
    private let users: any CurrentUserProviding
    private let clock: any JogsClock
    private let log: (any ModuleLog)?
    private let notices: (any JogsNoticeBoard)?

    init(repository: any JogRepository, users: any CurrentUserProviding, clock: any JogsClock,
         log: (any ModuleLog)? = nil, notices: (any JogsNoticeBoard)? = nil) {
        self.notices = notices
        self.repository = repository
        self.users = users
        self.clock = clock
        self.log = log
    }

    var today: Day { clock.today() }

    func currentUser() throws(JogsProblem) -> String {
        let name: String?
        do {
            name = try users.username()
        } catch {
            log?.log(.warning, "could not read the logged-in user: \(error)")
            throw .unavailable("Den could not tell who is logged in (\(error)).")
        }
        guard let name, !name.isEmpty else { throw .notLoggedIn }
        // The host stores folded, checked names; anything else must not become a storage key.
        guard AuthRules.usernameProblem(name) == nil, AuthRules.fold(name) == name else {
            log?.log(.error, "the session's user is not a valid username; showing no jogs")
            throw .unavailable("The logged-in user's name is not a valid username, so no jogs are shown; log out and in again.")
        }
        return name
    }

    func list(_ range: DayRange) throws(JogsProblem) -> JogListing {
        let user = try currentUser()
        let collection = try read { try repository.jogs(of: user) }
        let jogs = collection.jogs.filter { range.contains($0.date) }.sorted(by: Self.newestFirst)
        return JogListing(user: user, range: range, jogs: jogs, totals: JogTotals(jogs),
                          unreadable: collection.unreadableKeys.count)
    }

    func jog(id: Int) throws(JogsProblem) -> Jog {
        let user = try currentUser()
        guard let jog = try read({ try repository.jog(id, of: user) }) else { throw .notFound(id: id) }
        return jog
    }

    func validate(_ draft: JogDraft) -> Result<JogInput, JogFieldErrors> {
        JogValidator(today: today).validate(draft)
    }

    func add(_ draft: JogDraft) throws(JogsProblem) -> Jog {
        let user = try currentUser()
        let input = try valid(draft)
        return try write("save the new jog") { try repository.add(input, for: user) }
    }

    func update(id: Int, with draft: JogDraft) throws(JogsProblem) -> Jog {
        let user = try currentUser()
        let input = try valid(draft)
        let jog = input.jog(id: id)
        guard try write("save the changes", { try repository.replace(jog, for: user) }) else { throw .notFound(id: id) }
        return jog
    }

    func delete(id: Int) throws(JogsProblem) {
        let user = try currentUser()
        guard try write("delete the jog", { try repository.delete(id, of: user) }) else { throw .notFound(id: id) }
    }

    func leaveNotice(_ text: String) {
        do { try notices?.leave(text) } catch { log?.log(.warning, "could not keep a notice for the list: \(error)") }
    }

    func takeNotice() -> String? {
        do { return try notices?.take() } catch {
            log?.log(.warning, "could not read the notice left for the list: \(error)")
            return nil
        }
    }

    func weeklyReport() throws(JogsProblem) -> JogReport {
        let user = try currentUser()
        let collection = try read { try repository.jogs(of: user) }
        return JogReport(user: user, weeks: WeeklyReport.summarize(collection.jogs),
                         unreadable: collection.unreadableKeys.count)
    }

    func filter(from: String, to: String) -> Result<DayRange, DayRangeErrors> {
        DayRangeParser.parse(from: from, to: to)
    }

    // MARK: - Private

    static func newestFirst(_ lhs: Jog, _ rhs: Jog) -> Bool {
        lhs.date != rhs.date ? rhs.date < lhs.date : lhs.id > rhs.id
    }

    private func valid(_ draft: JogDraft) throws(JogsProblem) -> JogInput {
        switch validate(draft) {
        case .success(let input): return input
        case .failure(let errors): throw .invalid(errors)
        }
    }

    private func read<T>(_ body: () throws -> T) throws(JogsProblem) -> T {
        do {
            return try body()
        } catch {
            log?.log(.warning, "could not read the jogs: \(error)")
            throw .unavailable("Your jogs could not be read: \(error). Nothing was changed; try again.")
        }
    }

    private func write<T>(_ what: String, _ body: () throws -> T) throws(JogsProblem) -> T {
        do {
            return try body()
        } catch {
            log?.log(.warning, "could not \(what): \(error)")
            throw .unavailable("Could not \(what): \(error). Nothing was changed; try again.")
        }
    }
}
