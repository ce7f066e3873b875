import Synchronization

/// What metrics and spans say of a module beside its id: its version, how it is hosted and who
/// signed it.
public struct ModuleFacts: Sendable, Equatable {
    public var version: String
    /// "in-process" or "isolated".
    public var hosting: String
    /// The publisher whose key signed the file, "unsigned", or "" when signatures were not checked.
    public var signer: String
    /// The registry revision these were read at: a swap starts the new version's metric series.
    public var revision: Int

    public init(version: String, hosting: String, signer: String, revision: Int) {
        self.version = version
        self.hosting = hosting
        self.signer = signer
        self.revision = revision
    }

    static func unknown(revision: Int) -> ModuleFacts {
        ModuleFacts(version: "", hosting: "in-process", signer: "", revision: revision)
    }
}

/// Each module's facts, read from the registry again only when it changed: a call costs one
/// atomic load and a dictionary lookup, not a walk over the registry.
public final class ModuleFactsCache: Sendable {
    public struct Source: Sendable {
        /// The registry's revision, which every install, swap and removal bumps.
        var revision: @Sendable () -> Int
        /// Every active module's facts at that revision.
        var read: @Sendable (_ revision: Int) -> [String: ModuleFacts]

        public init(revision: @escaping @Sendable () -> Int, read: @escaping @Sendable (_ revision: Int) -> [String: ModuleFacts]) {
            self.revision = revision
            self.read = read
        }
    }

    private struct State {
        var revision = -1
        var byModule: [String: ModuleFacts] = [:]
    }

    private let source = Mutex<Source?>(nil)
    private let state = Mutex(State())

    public init() {}

    public func attach(_ source: Source) {
        self.source.withLock { $0 = source }
    }

    public func facts(of moduleID: String) -> ModuleFacts {
        guard let source = source.withLock({ $0 }) else { return .unknown(revision: 0) }
        let revision = source.revision()
        if let known = state.withLock({ $0.revision == revision ? $0.byModule[moduleID] : nil }) { return known }
        var byModule = source.read(revision)
        // An id no active module has (a module removed while its screens live) is kept too, so
        // its next call does not read the registry again.
        let facts = byModule[moduleID] ?? .unknown(revision: revision)
        byModule[moduleID] = facts
        state.withLock { $0 = State(revision: revision, byModule: byModule) }
        return facts
    }
}
