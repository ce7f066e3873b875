import DenKit
import DenLibraryContracts
import DenSupport
import FoundationEssentials
import Logging
import Synchronization

/// Why a module file may not load yet: what it asks for beyond its grant, and what to do.
package struct PermissionHold: Sendable, Equatable {
    package var reason: String
    package var fix: String
}

/// The user's grants, one record per module in storage (namespace `@den.grants`, which no module
/// reaches): in the data folder's SQLite file, or on PostgreSQL shared by every host. It decides
/// whether a module file may load (`admit`) and keeps the `PermissionGate` in step with what is
/// granted. docs/PERMISSIONS.md.
///
/// - A module with no grant yet is granted what its manifest asks for, recorded as
///   "first-load" when `recordsFirstLoad` (a file an operator placed in a modules folder by hand
///   or bundled with den); `den modules install` asks the user instead, before it copies the file.
/// - A module that asks for more than its grant is held: not loaded, so the version already
///   serving keeps serving, until `den modules grant <id>`.
package final class PermissionBook: Sendable {
    package static let namespace = "@den.grants"

    private let engine: any StorageEngine
    package let gate: PermissionGate
    private let recordsFirstLoad: Bool
    /// Whether loads are judged against the grants (den serve, den run, den plugins); otherwise
    /// the grants are read when a call first needs one (`PermissionGate.readGrantsWhenNeeded`).
    private let checksAtLoad: Bool
    /// A copy of the grants a one-shot command reads without opening storage (`GrantsCacheFile`).
    private let cacheFile: GrantsCacheFile?
    private let logger: Logger?
    /// The grants as last read; nil until the first read.
    private let cache = Mutex<[String: ModuleGrant]?>(nil)
    /// Modules held for permissions, by id: the file that asked, and what it asked for beyond the grant.
    private let heldStore = Mutex<[String: Held]>([:])
    /// First-load grants not written yet, while a start loads its modules (`batch`): one
    /// transaction for them all, not a synced write per module.
    private let pending = Mutex<(depth: Int, grants: [String: ModuleGrant])>((0, [:]))
    /// First-load grants of modules loaded while the grants could not be read: written at the
    /// first read that succeeds, unless a grant turned up meanwhile.
    private let firstLoadsOwed = Mutex<[String: ModuleGrant]>([:])
    /// When the grants were last read: `admit` reads them again before it holds a module or
    /// records a first load on a copy older than this, so a grant just written counts.
    private let lastRead = Mutex<ContinuousClock.Instant?>(nil)

    package struct Held: Sendable, Equatable {
        package var filePath: String
        package var version: String
        package var beyond: ModulePermissions
    }

    package init(engine: any StorageEngine, gate: PermissionGate, recordsFirstLoad: Bool, checksAtLoad: Bool = true,
                 cacheFile: GrantsCacheFile? = nil, logger: Logger? = nil) {
        self.engine = engine
        self.gate = gate
        self.recordsFirstLoad = recordsFirstLoad && checksAtLoad
        self.checksAtLoad = checksAtLoad
        self.cacheFile = cacheFile
        self.logger = logger
        if checksAtLoad && recordsFirstLoad { gate.holdModulesWithoutGrant() }
        if !checksAtLoad {
            gate.readGrantsWhenNeeded { [self] in
                if let copy = cacheFile?.read() {
                    self.cache.withLock { $0 = copy }
                    gate.setGranted(copy)
                    return
                }
                do throws(ServiceFailure) { try refreshed() } catch { gate.setUnreadable(error.message) }
            }
        }
    }

    // MARK: - Reading and writing grants

    /// Every module's grant, read from storage.
    package func readAll() throws(ServiceFailure) -> [String: ModuleGrant] {
        var grants: [String: ModuleGrant] = [:]
        for entry in try engine.list(namespace: Self.namespace, prefix: "") {
            guard let grant = try? WireFormat.decode(ModuleGrant.self, from: Data(entry.value.utf8)) else {
                // Damaged: it grants nothing (never "no grant yet", which a first load would fill).
                logger?.warning("the grant of module \(ModuleText.singleLine(entry.key, limit: 80)) in \(Self.namespace) cannot be read; it grants nothing until `den modules grant \(ModuleText.singleLine(entry.key, limit: 80))` writes it anew")
                grants[entry.key] = ModuleGrant(permissions: .nothing, version: "", how: ModuleGrant.unreadable, at: "")
                continue
            }
            grants[entry.key] = grant
        }
        return grants
    }

    package func grant(of moduleID: String) throws(ServiceFailure) -> ModuleGrant? {
        if let cached = cache.withLock({ $0 }) { return cached[moduleID] }
        return try refreshed()[moduleID]
    }

    /// Writes a grant (synced: it is the user's word).
    package func record(_ grant: ModuleGrant, of moduleID: String) throws(ServiceFailure) {
        let text: String
        do { text = String(decoding: try WireFormat.encode(grant), as: UTF8.self) } catch {
            throw ServiceFailure(.internalError, "cannot write the grant of \(moduleID): \(error)")
        }
        try engine.set(namespace: Self.namespace, key: moduleID, value: text)
        cache.withLock { $0?[moduleID] = grant }
        gate.setGranted(grant, of: moduleID)
    }

    /// Removes a module's grant entirely; true when it had one.
    package func forget(_ moduleID: String) throws(ServiceFailure) -> Bool {
        let removed = try engine.delete(namespace: Self.namespace, key: moduleID)
        cache.withLock { $0?[moduleID] = nil }
        gate.setGranted(nil, of: moduleID)
        return removed
    }

    /// Reads the grants again and hands them to the gate; returns them.
    @discardableResult
    package func refreshed() throws(ServiceFailure) -> [String: ModuleGrant] {
        let before = cacheFile?.storageStamp()
        var grants = try readAll()
        lastRead.withLock { $0 = .now }
        let owed = firstLoadsOwed.withLock { owed in defer { owed = [:] }; return owed }.filter { grants[$0.key] == nil }
        if !owed.isEmpty {
            write(owed)
            grants.merge(owed) { kept, _ in kept }
        }
        cacheFile?.write(grants, stampBefore: before)
        cache.withLock { $0 = grants }
        gate.setGranted(grants)
        return grants
    }

    // MARK: - Admission

    /// Whether a module file whose manifest is `manifest` may load; nil when it may, else why not.
    /// A first sight is granted (and recorded when `recordsFirstLoad`).
    package func admit(_ manifest: ModuleManifest, filePath: String) -> PermissionHold? {
        // Without checks at load, the gate holds the module to its grant at its first call.
        guard checksAtLoad else { return nil }
        let asked = manifest.permissions
        var grant: ModuleGrant?
        do {
            grant = try self.grant(of: manifest.id)
            // A copy read a while ago may miss a grant written since (den modules install just
            // before the file landed): read again before holding or recording a first load.
            let stale = lastRead.withLock { $0.map { ContinuousClock.now - $0 > .milliseconds(200) } ?? true }
            if stale, grant.map({ !asked.beyond($0.permissions).isEmpty }) ?? true {
                grant = try refreshed()[manifest.id]
            }
        } catch {
            // The module loads with no more than every module gets: its calls that need more
            // are refused, saying why, until the grants can be read (GrantFollower).
            gate.setUnreadable(error.message)
            if recordsFirstLoad {
                let first = ModuleGrant(permissions: asked, version: manifest.version, how: "first-load", at: UTCTime.iso8601(Date()))
                firstLoadsOwed.withLock { $0[manifest.id] = first }
            }
            if !asked.isEmpty {
                logger?.warning("\(manifest.id): the module grants cannot be read (\(error.message)); it is loaded, but what it asks for beyond its own data is refused until they can be")
            }
            return nil
        }
        guard let grant else {
            // A grant is written even for a module that asks for nothing: a later version that
            // asks for something then finds it, and is held, rather than taken for a first load.
            let first = ModuleGrant(permissions: asked, version: manifest.version, how: "first-load", at: UTCTime.iso8601(Date()))
            gate.setGranted(first, of: manifest.id)
            cache.withLock { $0?[manifest.id] = first }
            guard recordsFirstLoad else { return nil }
            let batched = pending.withLock { state -> Bool in
                guard state.depth > 0 else { return false }
                state.grants[manifest.id] = first
                return true
            }
            if !asked.isEmpty {
                logger?.notice("audit permission.granted \(manifest.id) \(manifest.version) at its first load: \(asked.brief)",
                               metadata: ["event": "permission.granted", "module": .string(manifest.id), "how": "first-load"])
            }
            if !batched {
                do { try record(first, of: manifest.id) } catch {
                    logger?.warning("the first grant of \(manifest.id) could not be written (\(error.message)); den writes it at its next load")
                }
            }
            released(manifest.id)
            return nil
        }
        let beyond = asked.beyond(grant.permissions)
        guard beyond.isEmpty else {
            heldStore.withLock { $0[manifest.id] = Held(filePath: filePath, version: manifest.version, beyond: beyond) }
            if grant.how == ModuleGrant.unreadable {
                return PermissionHold(reason: "its grant in this data folder cannot be read (damaged?), so it is granted nothing",
                                        fix: "`den modules grant \(manifest.id)` writes the grant anew; the version already serving, if any, keeps serving until then")
            }
            return PermissionHold(
                reason: "version \(manifest.version) asks for more than was granted: \(beyond.lines.joined(separator: "; "))",
                fix: "`den modules grant \(manifest.id)` agrees to it (the version already serving, if any, keeps serving until then); `den modules permissions \(manifest.id)` shows the grant")
        }
        released(manifest.id)
        return nil
    }

    /// Runs `body` (a start loading its modules) with first-load grants written once, at its end.
    package func batch<T>(_ body: () throws -> T) rethrows -> T {
        pending.withLock { $0.depth += 1 }
        defer {
            let grants = pending.withLock { state -> [String: ModuleGrant] in
                state.depth -= 1
                guard state.depth == 0 else { return [:] }
                defer { state.grants = [:] }
                return state.grants
            }
            if !grants.isEmpty { write(grants) }
        }
        return try body()
    }

    private func write(_ grants: [String: ModuleGrant]) {
        var operations: [StorageOperation] = []
        for (id, grant) in grants.sorted(by: { $0.key < $1.key }) {
            guard let data = try? WireFormat.encode(grant) else { continue }
            operations.append(.set(key: id, value: String(decoding: data, as: UTF8.self)))
        }
        do {
            try engine.apply(namespace: Self.namespace, operations: operations)
        } catch {
            logger?.warning("the first grants of \(grants.count) module(s) could not be written (\(error.message)); den writes them at its next start")
        }
    }

    private func released(_ moduleID: String) {
        _ = heldStore.withLock { $0.removeValue(forKey: moduleID) }
    }

    /// Modules held for permissions now.
    package var held: [String: Held] { heldStore.withLock { $0 } }

    /// Takes the held modules whose grant now covers what they ask for (as last read: call
    /// `refreshed()` first): what a running den loads again. A load that is held again puts
    /// the module back.
    package func takeReleasable() -> [Held] {
        let grants = cache.withLock { $0 } ?? [:]
        return heldStore.withLock { held in
            let ready = held.filter { id, entry in grants[id].map { entry.beyond.beyond($0.permissions).isEmpty } ?? false }
            for id in ready.keys { held[id] = nil }
            return ready.values.sorted { $0.filePath < $1.filePath }
        }
    }
}
