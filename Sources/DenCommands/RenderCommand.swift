import ArgumentParser
import DenCommandLine
import DenHost
import DenKit
import DenTerminal

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print one screen as text (or as Screen JSON) and exit.",
        discussion: "Exits with status 1 when no module serves the route, the module cannot build it, or its screen failed. A module call that runs past --call-timeout ends den render at once: the error on standard error, no screen, status 1.")

    @OptionGroup var host: HostOptions

    @Argument(help: "The route to draw, e.g. about or convert/100/USD/EUR.")
    var route: String

    @Flag(help: "Print the Screen JSON the module produced.")
    var json = false

    func run() throws {
        let status = try RouteRendering.render(route, json: json, runtime: try host.makeRuntime(oneShot: true))
        if status != 0 { throw ExitCode(status) }
    }
}
