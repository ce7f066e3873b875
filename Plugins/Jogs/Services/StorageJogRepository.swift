import DenKit

/// `JogRepository` over the module's key-value storage (the host's `storage.*`, namespaced to
/// `jogs`; `InMemoryKeyValueStore` in tests). Keys: `JogStorageKeys`.
///
/// - Ids come from `storage.increment` on `user/<username>/jogs-last-id`: atomic in the host, so
///   two UI sessions (or two den processes) adding at once never get the same id. An id whose
///   jog is then not written (a failed save) is simply never used.
/// - A jog is one record, written through `storage.transaction` (`KeyValueStore.write`), so it
///   is stored whole or not at all; a delete is one `storage.delete`.
final class StorageJogRepository: JogRepository {
    private let store: any KeyValueStore
    private let log: (any ModuleLog)?

    init(_ store: any KeyValueStore, log: (any ModuleLog)? = nil) {
        self.store = store
        self.log = log
    }

    func jogs(of user: String) throws -> JogCollection {
        let prefix = JogStorageKeys.jogsPrefix(of: user)
        var collection = JogCollection(jogs: [])
        for entry in try store.list(prefix: prefix) {
            do {
                guard let id = Int(entry.key.dropFirst(prefix.count)), id > 0 else {
                    throw StoredJogError("its key does not end in a jog id")
                }
                collection.jogs.append(try StoredJog.decode(entry.value, expectedID: id))
            } catch {
                log?.log(.warning, "skipping unreadable jog record '\(entry.key)': \(error)")
                collection.unreadableKeys.append(entry.key)
            }
        }
        return collection
    }

    func jog(_ id: Int, of user: String) throws -> Jog? {
        guard id > 0, let text = try store.get(JogStorageKeys.jog(id, of: user)) else { return nil }
        return try StoredJog.decode(text, expectedID: id)
    }

    func add(_ input: JogInput, for user: String) throws -> Jog {
        // One storage call on the host: the counter is the only source of ids, and a counter
        // reset by hand behind existing records never makes an insert overwrite one.
        let id = try store.insert(counter: JogStorageKeys.lastID(of: user), keyPrefix: JogStorageKeys.jogsPrefix(of: user)) { id in
            try StoredJog(input.jog(id: id)).encoded()
        }
        return input.jog(id: id)
    }

    func replace(_ jog: Jog, for user: String) throws -> Bool {
        let key = JogStorageKeys.jog(jog.id, of: user)
        guard jog.id > 0, try store.get(key) != nil else { return false }
        let record = try StoredJog(jog).encoded()
        try store.write { batch in batch.set(record, forKey: key) }
        return true
    }

    func delete(_ id: Int, of user: String) throws -> Bool {
        guard id > 0 else { return false }
        // One storage call that also says whether the jog was there: nothing to make atomic.
        return try store.delete(JogStorageKeys.jog(id, of: user))
    }
}
