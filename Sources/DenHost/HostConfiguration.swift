import DenAccounts
import DenLibraryClients
import DenLibraryContracts
import DenKit
import DenSupport
import FoundationEssentials
import Logging
import DenPermissions
import DenModuleFiles

/// Everything a `DenRuntime` needs to know, gathered by the command line.
public struct HostConfiguration: Sendable {
    /// Plugin folders named by `--plugin-dir` / `DEN_PLUGIN_PATH`, searched after the two
    /// default folders below; see `PluginDiscovery`.
    package var pluginDirectories: [URL]
    /// Where bundled modules are (`InstallLayout.bundledModulesDirectory`); nil leaves them out.
    /// Off by default here, like `userDirectory`: folders add up, so a test or an embedder that
    /// names its own folder would otherwise load the bundled modules too. The command line sets both.
    package var bundledDirectory: URL?
    /// The per-user modules folder (`InstallLayout.userModulesDirectory`); nil leaves it out.
    package var userDirectory: URL?
    /// Module ids to load (`--plugins about,main`); nil loads every module found.
    package var selectedModules: Set<String>?
    package var cacheDirectory: URL
    /// How much the plugin cache may keep (size and age of unused copies).
    package var cacheLimits: PluginCache.Limits = .default
    /// Where services keep durable data (`--data-dir`, default `~/.local/share/den`).
    package var dataDirectory: URL
    package var logLevel: Logger.Level
    /// How long a module call may run before the host gives up on it (`--call-timeout`).
    package var callPolicy: ModuleCallPolicy = .default
    /// Makes the engine behind the `storage` service for a data folder: SQLite by default,
    /// through `libDenSQLiteStorage.so` (`LibraryStorageEngine`; an embedder that links
    /// DenSQLiteEngine can pass `SQLiteStorageEngine` itself); a server database can take its
    /// place by conforming to `StorageEngine`.
    package var makeStorageEngine: @Sendable (URL) -> any StorageEngine = { LibraryStorageEngine(directory: $0) }
    /// The `auth` service: lockout, reset-token lifetime, scrypt parameters, clock (docs/ABI.md
    /// "Accounts"). Tests lower the scrypt parameters and inject a clock here.
    package var auth: AuthSettings = .default
    /// Install modules that carry a manifest from it, and load each one only when one of its
    /// routes is first built (`den` does unless `--eager`). Off here: an embedder gets every
    /// module loaded, and its load errors, at `loadPlugins`.
    package var loadsLazily = false
    /// The den version modules' `"den": "<range>"` requirements are held to (docs/CATALOG.md).
    package var denVersion = DenRelease.version
    /// Judge each module against the user's grants as it loads, holding one that asks for more,
    /// and record a first-load grant (den serve, den plugins). Off for den run and one-shot
    /// commands (den render, den call, den config), which read the grants only when a call first
    /// needs one, so that a screen is drawn without opening storage. docs/PERMISSIONS.md.
    package var checksGrantsAtLoad = true
    /// Keep a copy of the grants in the data folder (`GrantsCacheFile`), valid while its SQLite
    /// file is unchanged: set when storage is that file, never for PostgreSQL.
    package var keepsGrantsCache = false
    /// Which modules run isolated, in worker processes (`--isolate`, `den config set den.hosting`).
    public var hosting = HostingPolicy()
    /// The `den` executable that runs isolated modules' workers; nil: `den` beside this program.
    public var workerExecutable: String?
    /// Makes what runs isolated modules in workers (DenIsolation: `WorkerIsolation.make`); nil
    /// refuses every module `hosting` or the trust policy would isolate.
    package var makeIsolation: (@Sendable (IsolationRequest) -> any ModuleIsolation)?
    /// Checks module signatures against the trust list under a trust policy (docs/SIGNING.md);
    /// nil checks none, as before signing existed (an embedder, most tests). The command line sets it.
    package var trust: ModuleTrust?

    public init(pluginDirectories: [URL] = [], bundledDirectory: URL? = nil,
                userDirectory: URL? = nil, selectedModules: Set<String>? = nil, cacheDirectory: URL = PluginCache.defaultDirectory(),
                dataDirectory: URL = HostConfiguration.defaultDataDirectory(), logLevel: Logger.Level = .warning) {
        self.pluginDirectories = pluginDirectories
        self.bundledDirectory = bundledDirectory
        self.userDirectory = userDirectory
        self.selectedModules = selectedModules
        self.cacheDirectory = cacheDirectory
        self.dataDirectory = dataDirectory
        self.logLevel = logLevel
    }

    /// The folder a `--data-dir` value names; refuses '' (which would put `storage.sqlite` in
    /// whatever folder den happens to be started from).
    package static func dataDirectory(option value: String) throws(ServiceFailure) -> URL {
        guard !value.trimmingWhitespace().isEmpty else {
            throw .invalid("--data-dir is empty; name the folder where den keeps its data (e.g. --data-dir ~/.local/share/den), or leave the option out to use the default")
        }
        return URL(fileURLWithPath: value, isDirectory: true)
    }

    /// `$DEN_DATA_DIR`, else `$XDG_DATA_HOME/den`, else `~/.local/share/den`.
    public static func defaultDataDirectory(environment: [String: String] = ProcessEnvironment.hostVariables()) -> URL {
        // A blank DEN_DATA_DIR counts as unset: it must never become a folder named " " here.
        if let explicit = environment["DEN_DATA_DIR"], !explicit.trimmingWhitespace().isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        return InstallLayout.dataHome(environment).appendingPathComponent("den", isDirectory: true)
    }
}
