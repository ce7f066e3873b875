// The services the interactor needs, as the module's own small protocols: tests use mocks or
// in-memory stores, and thin adapters (Services/) connect them to the host's clients.

/// Who is logged in in this UI session (the host's `session` service, key `user`).
protocol CurrentUserProviding {
    /// The logged-in username, nil when nobody is; throws when the session cannot be read.
    func username() throws -> String?
}

/// Today's date where the user is. Injected so tests fix "today" (the future-date rule).
protocol JogsClock {
    func today() -> Day
}

/// One user's jogs in durable storage. Every method takes the owner: a repository call can only
/// ever reach that user's keys (`user/<username>/jogs/...`).
protocol JogRepository {
    /// Every jog of `user` that can be read, plus the keys of records that cannot.
    func jogs(of user: String) throws -> JogCollection
    /// The jog `id` of `user`, nil when `user` has none with that id.
    func jog(_ id: Int, of user: String) throws -> Jog?
    /// Stores a new jog under a fresh id, unique for `user` even with several sessions writing.
    func add(_ input: JogInput, for user: String) throws -> Jog
    /// Replaces the stored jog with `jog.id`; false (nothing written) when `user` has none.
    func replace(_ jog: Jog, for user: String) throws -> Bool
    /// Deletes the jog; false when `user` had none with that id.
    func delete(_ id: Int, of user: String) throws -> Bool
}

/// What a repository read: the jogs, and the keys of stored records it could not read (damaged
/// or written by a newer Jogs). Those are reported, never dropped silently or overwritten.
struct JogCollection: Equatable, Sendable {
    var jogs: [Jog]
    var unreadableKeys: [String] = []
}

/// One message kept from one Jogs screen to the next of the same session: the list says which
/// jog the detail screen just deleted. Kept in the session's own values, so no other browser or
/// terminal session sees it, and a link cannot make the list say it.
protocol JogsNoticeBoard {
    func leave(_ text: String) throws
    /// The message left, once: taking it removes it.
    func take() throws -> String?
}
