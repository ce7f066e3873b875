import ArgumentParser
import DenHost

struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "List route patterns and the module serving each, or show what a route resolves to.")

    @OptionGroup var host: HostOptions

    @Option(help: ArgumentHelp("Resolve this route instead of listing (builds nothing).", valueName: "route"))
    var resolve: String?

    func run() throws {
        let runtime = try host.makeRuntime(oneShot: true)
        if let route = resolve {
            switch runtime.registry.resolve(route) {
            case .success(let match):
                print("\(route) -> \(match.pattern) (module \(match.owner)\(match.value.requiresLogin ? ", requires login" : ""))")
                for (name, value) in match.parameters.sorted(by: { $0.key < $1.key }) { print("  \(name) = \(value)") }
                for (name, value) in match.query.sorted(by: { $0.key < $1.key }) { print("  ?\(name) = \(value)") }
            case .failure(let error):
                print("\(error)")
                throw ExitCode(1)
            }
            return
        }
        let routes = runtime.registry.routes
        guard !routes.isEmpty else {
            print("No routes: no module is loaded (see `den plugins`).")
            return
        }
        let width = routes.map(\.pattern.count).max() ?? 0
        for route in routes {
            print("\(route.pattern.padding(toLength: width, withPad: " ", startingAt: 0))  -> \(route.moduleID)\(route.requiresLogin ? "  (requires login)" : "")")
        }
    }
}
