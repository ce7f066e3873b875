import CDenProcess
import DenLibraryClients
import DenSupport
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What every isolated module of a runtime shares: how to start a worker, its limits, and the
/// quarantine book.
package final class IsolationSettings: Sendable {
    package let policy: HostingPolicy
    /// The `den` executable that runs workers (`den worker`).
    package let workerExecutable: String
    package var sandbox: Bool { policy.sandbox }
    package var memoryLimit: UInt64 { policy.memoryLimit }
    let callPolicy: ModuleCallPolicy
    package let quarantine: QuarantineBook
    /// Folders a sandboxed worker may still read (landlock): the system's and Swift's libraries,
    /// which the module may open lazily, and the locale and time-zone data. Never /etc or /home.
    let readablePaths: [String]
    /// Told when a module is quarantined (the runtime logs it).
    let onQuarantine: (@Sendable (String, String) -> Void)?
    /// Told when a module's worker ended (crashed, or was killed for a hang) and is started again.
    let onCrash: (@Sendable (String, String) -> Void)?
    private let modules = Mutex<[String: IsolatedModule]>([:])

    package init(policy: HostingPolicy, workerExecutable: String, callPolicy: ModuleCallPolicy, quarantine: QuarantineBook,
                 onQuarantine: (@Sendable (String, String) -> Void)? = nil, onCrash: (@Sendable (String, String) -> Void)? = nil) {
        self.policy = policy
        self.workerExecutable = workerExecutable
        self.callPolicy = callPolicy
        self.quarantine = quarantine
        self.onQuarantine = onQuarantine
        self.onCrash = onCrash
        var readable = ["/usr/lib", "/lib", "/lib64", "/usr/lib64", "/usr/share/zoneinfo", "/usr/share/locale", "/usr/lib/locale"]
        // The Swift runtime's folder (a toolchain outside /usr, e.g. /opt/swift).
        var name = [CChar](repeating: 0, count: 4096)
        if den_image_path_of_symbol("swift_retain", &name, name.count) == 0 {
            readable.append(Self.folder(of: String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        readable.append(Self.folder(of: workerExecutable))
        readablePaths = readable
    }

    /// The isolated module loaded from `filePath` (the newest, after a hot swap).
    package func module(forFile filePath: String) -> IsolatedModule? {
        modules.withLock { $0[filePath] }
    }

    /// Every isolated module by file.
    package var all: [IsolatedModule] { modules.withLock { Array($0.values) } }

    func remember(_ module: IsolatedModule) {
        // A hot swap's new version takes the file's place; the old version's worker keeps serving
        // the screens that still use it until they move to the new one.
        let older = modules.withLock { $0.updateValue(module, forKey: module.filePath) }
        if let older, older !== module { module.replaced(older) }
    }

    /// `den` beside the running executable: the worker is den itself.
    package static func defaultWorkerExecutable() -> String {
        if let layout = InstallLayout.current { return layout.executableDirectory.appendingPathComponent("den").path }
        return "den"
    }
}

extension IsolationSettings {
    /// A path's folder ("/" for a file at the root, "." for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
