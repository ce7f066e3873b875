import FoundationEssentials

/// Where a module runs: the one place that decides, so that a later trust policy (signed modules)
/// can feed the decision (docs/ISOLATION.md, "Choosing a mode").
public struct HostingPolicy: Sendable, Equatable {
    public enum Mode: String, Sendable, Codable, CaseIterable {
        /// Loaded into den's own process (`dlopen`): the fastest, and a crash ends den.
        case inProcess = "in-process"
        /// Loaded by a worker process of its own (`den worker`), restarted after a crash.
        case isolated
    }

    /// `--isolate all`.
    public var isolateAll = false
    /// `--isolate <module>`: module ids (or, for a module without a manifest, its file name).
    public var isolated: Set<String> = []
    /// The per-module setting (`den config set den.hosting <module> isolated`), by setting name
    /// (`HostingSettings.name(for:)`).
    public var configured: [String: Mode] = [:]
    /// Run isolated workers sandboxed (no_new_privs, seccomp, landlock where the kernel has it).
    public var sandbox = true
    /// The worker's address-space limit (RLIMIT_AS), in bytes.
    public var memoryLimit: UInt64 = 1 << 30
    /// Crashes within five minutes that quarantine a module file (a benchmark that crashes on
    /// purpose raises it).
    public var crashesToQuarantine = 3

    public init() {}

    /// The mode of a module whose flags and settings say nothing: in-process, for bundled and
    /// other modules alike (docs/ISOLATION.md says why).
    package static let defaultMode = Mode.inProcess

    /// The mode for one module file. `moduleID` is nil for a file without a manifest, whose id is
    /// unknown until its code runs: then only `--isolate all` or its file name decide.
    package func mode(moduleID: String?, fileName: String) -> Mode {
        if isolateAll { return .isolated }
        if let moduleID {
            if isolated.contains(moduleID) { return .isolated }
            if let chosen = configured[HostingSettings.name(for: moduleID)] { return chosen }
        }
        if isolated.contains(fileName) || isolated.contains(fileName.lowercased()) { return .isolated }
        return Self.defaultMode
    }

    /// Whether `--isolate` or `den.hosting` names modules one by one: then a module without a
    /// manifest, whose id only its code can tell, runs its entry point in a worker first.
    package var namesModules: Bool {
        !isolated.isEmpty || configured.values.contains(.isolated)
    }

    /// Whether any module could be isolated (so a host that isolates none starts no machinery).
    package var mayIsolate: Bool {
        isolateAll || !isolated.isEmpty || configured.values.contains(.isolated)
    }
}
