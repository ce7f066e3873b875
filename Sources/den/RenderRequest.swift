import DenCommandLine
import DenHost
#if canImport(Glibc)
import DenSupport
import Glibc
#endif

/// `den render <route> [--json] [host options]`, read by hand: the arguments `den-commands`'s
/// `RenderCommand` would accept, in any order, each at most once (`--plugin-dir` any number of
/// times), as `--name value` or `--name=value`. Anything else is left to `den-commands`, so help and
/// usage errors come from one parser only.
struct RenderRequest {
    var route: String
    var json = false
    var settings: HostSettings = {
        var settings = HostSettings()
        settings.checksGrantsAtLoad = false // a screen drawn once: grants read only if a call needs one
        return settings
    }()

    init?<Arguments: Collection<String>>(_ arguments: Arguments) {
        guard arguments.first == "render" else { return nil }
        var route: String?
        var seen: Set<String> = []
        var rest = arguments.dropFirst()[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("-") else {
                guard route == nil else { return nil }
                route = argument
                continue
            }
            let name = String(argument.prefix { $0 != "=" })
            // Only --plugin-dir may repeat; a repeated flag or option is den-commands's to judge.
            guard name == "--plugin-dir" || seen.insert(name).inserted else { return nil }
            if Self.flags.contains(name) {
                guard name == argument else { return nil } // --json=1
                switch name {
                case "--json": json = true
                case "--eager": settings.eager = true
                default: settings.noDefaultModules = true
                }
                continue
            }
            guard Self.options.contains(name) else { return nil }
            let value: String
            if name.count < argument.count {
                // ArgumentParser reads "--cache-dir=" as "--cache-dir" and takes the next word.
                guard name.count + 1 < argument.count else { return nil }
                value = String(argument.dropFirst(name.count + 1))
            } else {
                guard let next = rest.popFirst(), !next.hasPrefix("-") else { return nil }
                value = next
            }
            switch name {
            case "--plugin-dir": settings.pluginDirectories.append(value)
            case "--plugins": settings.plugins = value
            case "--data-dir": settings.dataDirectory = value
            case "--cache-dir": settings.cacheDirectory = value
            case "--log-level": settings.logLevel = value
            case "--trust-policy": settings.trustPolicy = value
            case "--slow-call-ms": settings.slowCall = value
            default: settings.callTimeout = value
            }
        }
        guard let route, settings.problem == nil else { return nil }
        // PostgreSQL storage is linked into den-commands only (docs/DEPLOY.md).
        if let database = settings.environment["DEN_DATABASE_URL"], !database.isEmpty { return nil }
        let folder = settings.dataDirectory ?? HostConfiguration.defaultDataDirectory(environment: settings.environment).path
        if access(folder + "/database-url", F_OK) == 0 { return nil }
        self.route = route
    }

    private static let flags: Set<String> = ["--json", "--eager", "--no-default-modules"]
    private static let options: Set<String> = ["--plugin-dir", "--plugins", "--data-dir", "--cache-dir", "--log-level", "--call-timeout",
                                                       "--slow-call-ms", "--trust-policy"]

    /// Renders the route; the exit status is `den-commands render`'s for the same arguments.
    func run() -> Int32 {
        let runtime = settings.makeRuntime()
        if let problem = SelectedModulesCheck(runtime: runtime).problem() {
            StandardStream.error.write("Error: \(problem)\n")
            return ExitStatus.usage
        }
        do {
            return try RouteRendering.render(route, json: json, runtime: runtime)
        } catch {
            StandardStream.error.write("Error: \(error)\n")
            return ExitStatus.failure
        }
    }
}
