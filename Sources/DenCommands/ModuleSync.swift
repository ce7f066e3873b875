import DenHost
import DenHotSwap
import DenLibraryClients
import DenPostgresEngine
import DenSupport
import Foundation
import Synchronization

/// `den serve` on PostgreSQL: keeps this host's user modules folder equal to the module files
/// published in the database (`den modules install|remove` on any host), and hot-swaps what
/// changed in. It checks on every `den_modules` notification, at start, and every `period`
/// (a notification sent while this host was down or reconnecting is lost).
final class ModuleSync: Sendable {
    let shelf: PostgresModuleShelf
    let folder: URL
    let period: Duration
    private let swap: @Sendable (URL) -> HotSwapReport
    private let say: @Sendable (String) -> Void
    private let wake = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)
    /// Published versions refused here (module id + SHA-256): said once, not fetched again
    /// until another version is published.
    private let refused = Mutex<Set<String>>([])
    /// SHA-256s of the files this sync placed: the folder watch sees them too, and must not
    /// publish them back (a newer version published meanwhile would be undone).
    private let placed = Mutex<Set<String>>([])

    init(shelf: PostgresModuleShelf, folder: URL, period: Duration,
         swap: @escaping @Sendable (URL) -> HotSwapReport, say: @escaping @Sendable (String) -> Void) {
        self.shelf = shelf
        self.folder = folder
        self.period = period
        self.swap = swap
        self.say = say
    }

    func start() {
        let wake = self.wake, say = self.say
        shelf.listen(trouble: { say("module sync: \($0)") }, changed: { wake.signal() })
        Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                _ = wake.wait(timeout: .now() + .milliseconds(Int(period / .milliseconds(1))))
                while wake.wait(timeout: .now()) == .success {} // a burst of notifications: one check
                if stopped.load(ordering: .relaxed) { break }
                catchUp()
            }
        }.start()
        wake.signal() // the check at start
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        shelf.stopListening()
        wake.signal()
    }

    /// Brings the folder to what the database holds; each module on its own, so one bad row
    /// never stops the others.
    func catchUp() {
        let entries: [PostgresModuleShelf.Entry]
        do {
            entries = try shelf.entries()
        } catch {
            say("Error: module sync: cannot read the shared modules: \(error.message) den checks again within \(period).")
            return
        }
        for entry in entries { follow(entry) }
    }

    private func follow(_ entry: PostgresModuleShelf.Entry) {
        let name = entry.fileName
        guard name.hasSuffix(".so"), !name.hasPrefix("."), !name.contains("/"), name != ".so" else {
            refuse(entry, "its file name '\(name)' is not a plain *.so name")
            return
        }
        let target = folder.appendingPathComponent(name)
        if entry.removed {
            guard FileManager.default.fileExists(atPath: target.path) else { return }
            do {
                try FileManager.default.removeItem(at: target)
                say("module sync: removed \(target.path): module '\(entry.moduleID)' was removed on \(entry.publishedBy.isEmpty ? "another host" : entry.publishedBy). This den serves the version it loaded until it stops.")
            } catch {
                say("Error: module sync: cannot remove \(target.path) (\(error.localizedDescription)); make the folder writable by den.")
            }
            return
        }
        guard Self.sha256(of: target) != entry.sha256 else { return }
        let key = entry.moduleID + " " + entry.sha256
        guard !refused.withLock({ $0.contains(key) }) else { return }
        let fetched: (bytes: [UInt8], matches: Bool)?
        do {
            fetched = try shelf.bytes(moduleID: entry.moduleID, sha256: entry.sha256)
        } catch {
            say("Error: module sync: cannot fetch module '\(entry.moduleID)': \(error.message) den tries again within \(period).")
            return
        }
        guard let fetched else { return } // replaced since the listing: the next check takes the newer one
        guard fetched.matches else {
            refuse(entry, "its bytes do not match the SHA-256 published with them (the row was changed or damaged)")
            return
        }
        // Checked beside the target under a hidden name the folder watch ignores, then renamed
        // over it in one step: a file that fails the load checks never replaces a working one.
        let partial = folder.appendingPathComponent(".\(name).\(getpid()).sync")
        defer { try? FileManager.default.removeItem(at: partial) }
        do {
            try PrivateFolder.create(folder)
            try Data(fetched.bytes).write(to: partial)
        } catch {
            say("Error: module sync: cannot write into \(folder.path) (\(error.localizedDescription)); make the folder writable by den (or set XDG_DATA_HOME).")
            return
        }
        do {
            let inspection = try ModuleFileInspection.inspect(partial)
            if !inspection.problems.isEmpty {
                refuse(entry, inspection.problems.joined(separator: "; "))
                return
            }
            if let id = inspection.manifest?.id, id != entry.moduleID {
                refuse(entry, "the file describes module '\(id)', not '\(entry.moduleID)'")
                return
            }
        } catch {
            refuse(entry, "\(error)")
            return
        }
        placed.withLock { _ = $0.insert(entry.sha256) }
        guard rename(partial.path, target.path) == 0 else {
            say("Error: module sync: cannot put \(target.path) in place (\(String(cString: strerror(errno)))); make the folder writable by den.")
            return
        }
        let report = swap(target)
        switch report.outcome {
        case .refused(let error):
            say("Error: module sync: \(error.description)")
        case .swapped, .installed:
            say("module sync: \(entry.moduleID) \(entry.version) from \(entry.publishedBy.isEmpty ? "the database" : entry.publishedBy): \(report.description)")
        case .unchanged:
            break
        }
    }

    /// A module file swapped in from this host's own modules folder (`den serve --watch`): published
    /// for the other hosts, unless this sync placed it.
    func publishLocalChange(_ file: URL, moduleID: String?, version: String?) {
        guard file.deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path,
              let sha = Self.sha256(of: file), !placed.withLock({ $0.contains(sha) }),
              let bytes = try? Data(contentsOf: file),
              let inspection = try? ModuleFileInspection.inspect(file), inspection.problems.isEmpty,
              let id = moduleID ?? inspection.manifest?.id else { return }
        do {
            if try shelf.publish(moduleID: id, fileName: file.lastPathComponent, version: version ?? inspection.manifest?.version ?? "",
                                 bytes: Array(bytes), by: Self.hostName) {
                say("module sync: published \(file.lastPathComponent) (\(id)) for the other hosts on \(shelf.engine.location)")
            }
        } catch {
            say("Error: module sync: \(file.lastPathComponent) serves here but could not be published for the other hosts: \(error.message) Publish it with `den modules install` once the database answers.")
        }
    }

    private func refuse(_ entry: PostgresModuleShelf.Entry, _ reason: String) {
        guard refused.withLock({ $0.insert(entry.moduleID + " " + entry.sha256).inserted }) else { return }
        say("Error: module sync: refused module '\(entry.moduleID)' \(entry.version) published by \(entry.publishedBy.isEmpty ? "another host" : entry.publishedBy): \(reason). The version this den has keeps serving; publish a good file again with `den modules install`.")
    }

    /// Hex SHA-256 of a file, or nil when it cannot be read.
    static func sha256(of file: URL) -> String? {
        guard let data = try? Data(contentsOf: file), let digest = try? CryptoLibrary.shared.sha256(Array(data)) else { return nil }
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    /// Who published, for the other hosts' messages.
    static var hostName: String {
        "\(ProcessInfo.processInfo.hostName) pid \(getpid())"
    }
}
