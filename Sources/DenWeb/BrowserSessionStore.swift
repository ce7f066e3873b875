import DenHost
import DenKit
import DenLibraryClients
import Foundation
import Logging

/// One browser session as `den serve` saves it after every request: enough for any host — this
/// one after a restart, or another one behind the same load balancer — to carry it on, logged
/// in, on the same screens with the same typed values (each screen's module snapshot).
struct SavedBrowserSession: Codable, Sendable, Equatable {
    var csrfToken: String
    var values: SessionStore.Saved
    var navigation: SavedNavigation
    var notices: [String]
    var errors: [String]
    var openURLs: [String]
    /// When it was saved (seconds since 1970): an idle session expires by this, on every host.
    var savedAt: Double
    /// A fresh value on every save: a host holding an older copy in memory reloads it.
    var revision: String

    /// The same session as `other`, whatever their save times and revisions.
    func sameContent(as other: SavedBrowserSession) -> Bool {
        csrfToken == other.csrfToken && values == other.values && navigation == other.navigation
            && notices == other.notices && errors == other.errors && openURLs == other.openURLs
    }
}

extension SavedBrowserSession: WireDocument {
    init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        csrfToken = try object.string("csrfToken")
        values = try SessionStore.Saved(wire: object.required("values"))
        navigation = try SavedNavigation(wire: object.required("navigation"))
        notices = try object.strings("notices")
        errors = try object.strings("errors")
        openURLs = try object.strings("openURLs")
        savedAt = try object.required("savedAt").double()
        revision = try object.string("revision")
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("csrfToken", csrfToken)
        writer.member("errors", strings: errors)
        writer.key("navigation")
        navigation.write(to: &writer)
        writer.member("notices", strings: notices)
        writer.member("openURLs", strings: openURLs)
        writer.member("revision", revision)
        writer.key("savedAt")
        writer.double(savedAt)
        writer.key("values")
        values.write(to: &writer)
        writer.endObject()
    }

    /// The document as saved (the hand-written form).
    var text: String { String(decoding: (try? WireFormat.encode(self)) ?? Data(), as: UTF8.self) }

    /// A saved document, read by hand, or by JSONDecoder when that misses.
    static func read(_ text: String) throws -> SavedBrowserSession {
        try WireFormat.decode(SavedBrowserSession.self, from: Data(text.utf8))
    }
}

/// Where browser sessions are kept between requests: the seam between `den serve`'s session
/// table and the database. Every method is safe from any thread; a failure is logged by the
/// store and never fails the request (the session then lives on in this host's memory alone).
protocol BrowserSessionStore: Sendable {
    /// The saved session a cookie names, if any.
    func load(_ cookie: String) -> SavedBrowserSession?
    /// The saved session's revision alone; nil when there is no saved copy; throws when storage
    /// cannot tell.
    func revision(_ cookie: String) throws(ServiceFailure) -> String?
    /// A session's first save (nobody else can hold its cookie yet). False when the save failed (logged).
    @discardableResult
    func save(_ session: SavedBrowserSession, cookie: String) -> Bool
    /// Saves over the copy of revision `replacing` only (a compare-and-set): another host's save
    /// or deletion in between is never overwritten.
    func save(_ session: SavedBrowserSession, cookie: String, replacing: String) -> BrowserSessionSave
    /// Saves a session under its new cookie and deletes the old cookie's copy, in one synced
    /// write (a login or logout): no host restores the old cookie's copy after it.
    @discardableResult
    func move(_ session: SavedBrowserSession, from cookie: String, to fresh: String) -> Bool
    /// Deletes the cookie's copy while it is still of `revision` (a session ended here that
    /// another host has used since lives on there).
    func delete(_ cookie: String, ifRevision revision: String)
    /// Deletes every session saved before `cutoff` (seconds since 1970).
    func deleteSaved(before cutoff: Double)
    /// The storage key of a cookie's copy (what `watchChanges` reports).
    func key(_ cookie: String) -> String?
    /// Reports each cookie key deleted by another process on this database (`StorageEngine.watchChanges`);
    /// false when only this process deletes (SQLite).
    func watchChanges(_ report: @escaping @Sendable (StorageChange) -> Void) -> Bool
    /// `StorageEngine.foreignChanges`: changes when another process wrote to the database.
    func foreignChanges() throws(ServiceFailure) -> UInt64?
}

/// What a compare-and-set save did.
enum BrowserSessionSave: Equatable {
    case saved
    /// The saved copy is no longer of the expected revision (another host saved or deleted it).
    case superseded
    /// Storage failed (logged): the saved copy is still the previous one.
    case failed
}

/// Browser sessions in the `storage` service's engine, in a namespace no module can reach:
/// SQLite in the data folder by default (a restart of den logs nobody out), PostgreSQL with
/// `--database` (any host answers any request). Keys are the SHA-256 of the cookie, so someone
/// who can read the database still cannot present a session's cookie.
final class StorageBrowserSessionStore: BrowserSessionStore {
    static let namespace = "@den.web.sessions"

    private let engine: any StorageEngine
    private let logger: Logger

    init(engine: any StorageEngine, logger: Logger) {
        self.engine = engine
        self.logger = logger
    }

    func key(_ cookie: String) -> String? {
        guard let digest = try? CryptoLibrary.shared.sha256(Array(cookie.utf8)) else { return nil }
        // Hex through a table: a String per byte cost as much as the hash (every request makes this key).
        let digits = Array("0123456789abcdef".utf8)
        var text = Array("session/".utf8)
        text.reserveCapacity(text.count + digest.count * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private func revisionKey(_ key: String) -> String { "revision/" + key.dropFirst("session/".count) }

    func load(_ cookie: String) -> SavedBrowserSession? {
        guard let key = key(cookie) else { return nil }
        do {
            guard let text = try engine.get(namespace: Self.namespace, key: key) else { return nil }
            return try SavedBrowserSession.read(text)
        } catch {
            logger.warning("den serve could not read a saved browser session (\(error)); the browser starts a new session")
            return nil
        }
    }

    func revision(_ cookie: String) throws(ServiceFailure) -> String? {
        guard let key = key(cookie) else { throw ServiceFailure(.unavailable, "the session key could not be made") }
        return try engine.get(namespace: Self.namespace, key: revisionKey(key))
    }

    @discardableResult
    func save(_ session: SavedBrowserSession, cookie: String) -> Bool {
        guard let key = key(cookie) else { return false }
        do {
            let text = session.text
            // Saved on every request: a kill of den keeps it, a power cut may cost the last step.
            try engine.applyUnsynced(namespace: Self.namespace, operations: [.set(key: key, value: text),
                                                                             .set(key: revisionKey(key), value: session.revision)])
            return true
        } catch {
            logger.warning("den serve could not save a browser session (\(error)); it goes on in this host's memory only, so a restart or another host would start it from its last saved copy")
            return false
        }
    }

    func save(_ session: SavedBrowserSession, cookie: String, replacing expected: String) -> BrowserSessionSave {
        guard let key = key(cookie) else { return .failed }
        do {
            let text = session.text
            let applied = try engine.applyUnsynced(namespace: Self.namespace,
                                                   operations: [.set(key: key, value: text), .set(key: revisionKey(key), value: session.revision)],
                                                   ifKey: revisionKey(key), holds: expected)
            return applied ? .saved : .superseded
        } catch {
            logger.warning("den serve could not save a browser session (\(error)); it goes on in this host's memory only, so a restart or another host would start it from its last saved copy")
            return .failed
        }
    }

    @discardableResult
    func move(_ session: SavedBrowserSession, from cookie: String, to fresh: String) -> Bool {
        guard let old = key(cookie), let new = key(fresh) else { return false }
        do {
            // Written from this host's copy, never read back first: a read-then-write would let
            // another host restore the logged-in copy under the old cookie in between.
            let text = session.text
            try engine.apply(namespace: Self.namespace, operations: [
                .set(key: new, value: text), .set(key: revisionKey(new), value: session.revision),
                .delete(key: old), .delete(key: revisionKey(old)),
            ])
            return true
        } catch {
            logger.warning("den serve could not save a browser session under its new cookie (\(error)); it goes on in this host's memory only")
            return false
        }
    }

    func delete(_ cookie: String, ifRevision revision: String) {
        guard let key = key(cookie) else { return }
        do {
            // Unsynced like the saves: a copy a power cut brings back is still checked for expiry
            // and for its account's identity before it is used; logins and logouts move the
            // session to a new cookie (`move`), which is synced.
            _ = try engine.applyUnsynced(namespace: Self.namespace, operations: [.delete(key: key), .delete(key: revisionKey(key))],
                                         ifKey: revisionKey(key), holds: revision)
        } catch {
            logger.warning("den serve could not delete an ended browser session (\(error)); it expires by itself")
        }
    }

    func watchChanges(_ report: @escaping @Sendable (StorageChange) -> Void) -> Bool {
        engine.watchChanges(in: Self.namespace, report)
    }

    func foreignChanges() throws(ServiceFailure) -> UInt64? {
        try engine.foreignChanges()
    }

    func deleteSaved(before cutoff: Double) {
        do {
            var operations: [StorageOperation] = []
            for entry in try engine.list(namespace: Self.namespace, prefix: "session/") {
                let saved = try? SavedBrowserSession.read(entry.value)
                guard (saved?.savedAt ?? 0) < cutoff else { continue }
                operations += [.delete(key: entry.key), .delete(key: revisionKey(entry.key))]
            }
            if !operations.isEmpty { try engine.apply(namespace: Self.namespace, operations: operations) }
        } catch {
            logger.warning("den serve could not delete expired browser sessions (\(error)); it tries again in a minute")
        }
    }
}
