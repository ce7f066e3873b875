/// What to resolve: the user's requests and everything already decided around them.
public struct ResolutionRequest: Sendable {
    /// Module id → the range the user asked for (`den modules install jogs-stats@^2`). A request
    /// on `den` is checked against `denVersion`.
    package var requests: [String: VersionRequirement]
    /// The running den's version: every `den` requirement is checked against it, never installed.
    package var denVersion: SemanticVersion
    /// What is installed, by id. Installed modules stay, and their requirements hold: installing
    /// something never breaks a module that is already there.
    package var installed: [String: ModuleRelease]
    /// Module id → the only version it may have (`den modules pin`).
    package var pins: [String: SemanticVersion]
    /// Which installed modules may move to their newest fitting version.
    package var update: UpdatePolicy
    /// The most candidate versions tried before giving up (see `DependencyResolver.defaultStepLimit`).
    package var stepLimit: Int

    public init(requests: [String: VersionRequirement], denVersion: SemanticVersion, installed: [String: ModuleRelease] = [:],
                pins: [String: SemanticVersion] = [:], update: UpdatePolicy = .none, stepLimit: Int = DependencyResolver.defaultStepLimit) {
        self.requests = requests
        self.denVersion = denVersion
        self.installed = installed
        self.pins = pins
        self.update = update
        self.stepLimit = stepLimit
    }
}

/// Whether installed modules keep their versions when those still fit.
public enum UpdatePolicy: Sendable, Equatable {
    /// Keep every installed version that fits (`den modules install`).
    case none
    /// Move these to the newest fitting version (`den modules update <id>`).
    case only(Set<String>)
    /// Move every module to the newest fitting version (`den modules update`).
    case all

    func includes(_ id: String) -> Bool {
        switch self {
        case .none: false
        case let .only(ids): ids.contains(id)
        case .all: true
        }
    }
}

/// What to do: the modules to install or change, dependencies before the modules that need them.
public struct ResolutionPlan: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case install
        case upgrade(from: SemanticVersion)
        /// Only when a request cannot be met otherwise; a command should say so before it acts.
        case downgrade(from: SemanticVersion)
    }

    public struct Step: Sendable, Equatable, CustomStringConvertible {
        /// The version to put in place.
        public let release: ModuleRelease
        /// What it does to what is installed.
        public let action: Action

        public var description: String {
            switch action {
            case .install: "install \(release)"
            case let .upgrade(from): "upgrade \(release.id) \(from) → \(release.version)"
            case let .downgrade(from): "downgrade \(release.id) \(from) → \(release.version)"
            }
        }
    }

    /// The changes, in an order where every module's dependencies come before it.
    public let steps: [Step]
    /// Every module once the plan is carried out, installed ones kept included: id → version.
    public let selection: [String: SemanticVersion]
}

/// Why nothing can be installed, in words that name the chain of requirements.
public struct ResolutionFailure: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// No choice of versions meets every requirement.
        case unsatisfiable
        /// The search tried `stepLimit` candidates and stopped: a pathological catalog cannot hang den.
        case stepLimit
    }

    package let kind: Kind
    /// The dead ends met, first first, each a sentence (at most `ResolverSearch.keptReasons`).
    package let reasons: [String]
    /// Candidate versions tried before the search stopped.
    package let steps: Int

    public var description: String {
        switch kind {
        case .unsatisfiable:
            return reasons.joined(separator: "; ")
        case .stepLimit:
            let first = reasons.first.map { " The first dead end: \($0)." } ?? ""
            return "resolving gave up after trying \(steps) candidate versions: the requirements are too tangled to settle.\(first)"
        }
    }
}

/// Chooses versions for a request against a catalog: for each module the newest version that
/// every requirement on it admits, keeping installed versions that fit, and backtracking to
/// older versions when a newer one leads to a dead end — so a solvable request is solved.
///
/// Public, with the types it takes and returns, only so the benchmark package (Benchmarks/,
/// the `catalog` figure) can time it; the rest of DenCatalog stays `package`.
public struct DependencyResolver: Sendable {
    /// Candidate versions tried before giving up. A real catalog needs about one per module in
    /// the plan; the limit only stops catalogs built to make backtracking explode.
    public static let defaultStepLimit = 100_000

    package let catalog: any ModuleCatalog

    public init(catalog: some ModuleCatalog) {
        self.catalog = catalog
    }

    /// The plan that meets every requirement, or why none does; never loops past `stepLimit`.
    public func resolve(_ request: ResolutionRequest) -> Result<ResolutionPlan, ResolutionFailure> {
        var search = ResolverSearch(catalog: catalog, request: request)
        return search.run()
    }
}
