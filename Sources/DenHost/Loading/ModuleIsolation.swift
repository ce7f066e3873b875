import CDenABI
import DenKit
import FoundationEssentials
import Logging
import Synchronization

/// Runs modules in worker processes of their own (DenIsolation's `WorkerIsolation`). The runtime
/// decides which modules run isolated (`HostingPolicy`, the trust policy); this seam runs them, so
/// that DenHost knows no worker, frame or sandbox.
package protocol ModuleIsolation: Sendable {
    /// Workers run sandboxed: the trust policy lets an untrusted module run only then.
    var sandbox: Bool { get }
    /// Runs the entry point of the copy at `copyPath` in a worker and replays what it registered
    /// through a registrar of the host's own, so every rule is checked on this side as well.
    func load(_ file: IsolatedFile, hub: ServiceHub, logger: Logger?) throws(PluginLoadError) -> LoadedPlugin
    /// Keeps `module` as its file's isolated module (a hot swap's new version takes the file's place).
    func remember(_ module: any IsolatedHosting)
}

/// A plugin file to run isolated.
package struct IsolatedFile: Sendable {
    package var filePath: String
    /// The private copy the worker opens (`PluginCache`).
    package var copyPath: String
    package var fileName: String
    /// Its manifest, when it has one; the registration is held to it.
    package var manifest: ModuleManifest?
}

/// One module running in a worker, as the runtime holds it (`PluginRecord.isolated`).
package protocol IsolatedHosting: AnyObject, Sendable {
    /// The worker's pid (nil: none running) and its restarts so far.
    var worker: (pid: Int32?, restarts: Int) { get }
    /// True while it is quarantined after a crash loop.
    var isQuarantined: Bool { get }
    /// "isolated, pid 4242, 1 restart, sandbox: …" (`den plugins`, About's `hosting`).
    var hostingLine: String { get }
    /// The bytes den sent to and received from the running worker, frames whole.
    var traffic: (sent: Int, received: Int) { get }
    /// Stops the worker for good: a hot swap replaced this version, or its load was refused.
    func retire()
}

/// What a runtime's isolation is made from (`HostConfiguration.makeIsolation`).
package struct IsolationRequest: Sendable {
    package var policy: HostingPolicy
    /// The `den` executable that runs workers; nil: `den` beside this program.
    package var workerExecutable: String?
    package var callPolicy: ModuleCallPolicy
    /// Where the quarantine book is kept.
    package var dataDirectory: URL
    package var logger: Logger
}

/// Instance tables den itself provides in place of a module's (an isolated module's stand-in).
/// Their instances may carry a notice for the next screen, such as a restart after a crash, which
/// the host shows as a banner (`ModuleInstanceHandle.handle`).
package enum HostMadeInstances {
    private static let tables = Mutex<[Int: @Sendable (UnsafeMutableRawPointer) -> String?]>([:])

    /// Registers `table`, whose instances' notices `notice` takes (once each).
    package static func register(_ table: UnsafePointer<den_instance_api>, notice: @escaping @Sendable (UnsafeMutableRawPointer) -> String?) {
        tables.withLock { $0[Int(bitPattern: table)] = notice }
    }

    /// The notice of `instance`, when its table is one of den's own and it carries one.
    static func notice(table: UnsafePointer<den_instance_api>, instance: UnsafeMutableRawPointer) -> String? {
        guard let take = tables.withLock({ $0[Int(bitPattern: table)] }) else { return nil }
        return take(instance)
    }
}

/// The isolation of a program built without DenIsolation: it refuses every module it is asked to
/// isolate, so that isolation asked for is never skipped without a word.
struct UnavailableIsolation: ModuleIsolation {
    var sandbox: Bool { false }

    func load(_ file: IsolatedFile, hub: ServiceHub, logger: Logger?) throws(PluginLoadError) -> LoadedPlugin {
        throw PluginLoadError(file: file.filePath, cause: .workerFailed("this program was built without worker isolation (DenIsolation), so it cannot run a module isolated"),
                              moduleID: file.manifest?.id)
    }

    func remember(_ module: any IsolatedHosting) {}
}
