import DenTestSupport
import Foundation

/// Runs the built `den` binary with private cache and data folders.
struct DenCommand {
    let temp: TemporaryDirectory

    init() throws {
        temp = try TemporaryDirectory("den-e2e")
    }

    func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:],
             executable: URL = BuildProducts.den) throws -> ProcessResult {
        try ProcessRunner.run(BuildProducts.require(executable), arguments, input: input, environment: privateEnvironment(environment))
    }

    /// As `run`, with standard error on a pseudo-terminal `columns` wide: `stderr` is every byte
    /// den wrote there, redraws included (TerminalStderr).
    func runOnTerminal(_ arguments: [String], environment: [String: String] = [:], columns: Int = 120) throws -> ProcessResult {
        try TerminalStderr.run(BuildProducts.require(BuildProducts.den), arguments, environment: privateEnvironment(environment), columns: columns)
    }

    /// A running `den` with the same private folders as `run`'s, its standard streams on pipes:
    /// for a test that talks to it, or signals it, while it runs.
    func start(_ arguments: [String], executable: URL = BuildProducts.den) throws -> Spawned {
        try Spawned(BuildProducts.require(executable), arguments,
                    environment: ProcessInfo.processInfo.environment.merging(privateEnvironment([:])) { $1 })
    }

    private func privateEnvironment(_ given: [String: String]) -> [String: String] {
        var environment = given
        environment["DEN_CACHE_DIR"] = temp.path("cache").path
        environment["DEN_DATA_DIR"] = temp.path("data").path
        // The per-user modules folder ($XDG_DATA_HOME/den/modules) must be private too.
        environment["XDG_DATA_HOME"] = environment["XDG_DATA_HOME"] ?? temp.path("xdg-data").path
        environment["DEN_PLUGIN_PATH"] = environment["DEN_PLUGIN_PATH"] ?? ""
        environment["NO_COLOR"] = "1"
        // Keys, trust list and trust policy: never the user's own.
        environment["DEN_CONFIG_DIR"] = environment["DEN_CONFIG_DIR"] ?? temp.path("config").path
        environment["DEN_TRUST_POLICY"] = environment["DEN_TRUST_POLICY"] ?? ""
        return environment
    }

    /// A plugin folder holding copies of the named build products.
    func pluginFolder(_ libraries: [String], extra: [String: Data] = [:]) throws -> URL {
        let folder = try temp.folder("plugins-\(UUID().uuidString.prefix(8))")
        for library in libraries {
            try temp.copy(BuildProducts.require(BuildProducts.library(library)), into: folder)
        }
        for (name, contents) in extra {
            try temp.write(contents, to: name, in: folder)
        }
        return folder
    }
}
