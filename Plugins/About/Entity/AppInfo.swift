/// The facts the About screen states about the app.
struct AppInfo: Equatable, Sendable {
    var name: String
    var version: String
    var description: String
    var website: String

    static let den = AppInfo(
        name: "Den",
        version: "1.0.0",
        description: "A host for modular Swift apps: each screen is a module plugin that ships, upgrades and hot-swaps on its own.",
        website: "https://github.com/den-swift/den")
}

/// A loaded module as the About screen lists it.
struct LoadedModule: Equatable, Sendable {
    var id: String
    var version: String
    var summary: String
    /// Hot swap: 1 for the version loaded at start, one more per swap (nil from older hosts).
    var generation: Int? = nil
    /// When the serving version was loaded, ISO 8601 (nil from older hosts).
    var loadedAt: String? = nil
    /// Where it runs: "in-process", or "isolated, pid 4242, 0 restarts, …" (nil from older hosts).
    var hosting: String? = nil
    /// Who signed it, by the host's trust list (nil: unsigned, unknown, or an older host).
    var publisher: String? = nil
    /// `signed`, `unsigned`, `unknown-key`, … (nil from hosts that check no signatures).
    var signature: String? = nil
    /// What it may touch beyond its own data, brief: "http(www.ecb.europa.eu)", "auth", "-" for
    /// nothing (nil from hosts before ABI revision 5, and for a module without a manifest).
    var permissions: String? = nil
    /// Set when it took most of den's module time over the last minute: "took 83% of den's
    /// module time over the last minute (41 s of 49 s)" (nil otherwise, and from older hosts).
    var busy: String? = nil
}
