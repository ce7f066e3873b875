/// Where Jogs keeps a user's data in its storage namespace. Everything sits under
/// `user/<username>/`, so `den users delete <username>` removes it with the account
/// (docs/ABI.md, "Per-user data in modules").
///
///     user/<username>/jogs/<id>       one jog, `StoredJog` JSON
///     user/<username>/jogs-last-id    the last id handed out (`storage.increment`)
enum JogStorageKeys {
    /// The prefix of every jog record of `user`.
    static func jogsPrefix(of user: String) -> String {
        "user/\(user)/jogs/"
    }

    static func jog(_ id: Int, of user: String) -> String {
        jogsPrefix(of: user) + String(id)
    }

    /// Outside the `jogs/` prefix, so listing the jogs never meets it.
    static func lastID(of user: String) -> String {
        "user/\(user)/jogs-last-id"
    }
}
