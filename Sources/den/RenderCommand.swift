import ArgumentParser
import DenHost
import DenKit
import DenTerminal

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print one screen as text (or as Screen JSON) and exit.",
        discussion: "Exits with status 1 when no module serves the route, the module cannot build it, or its screen failed.")

    @OptionGroup var host: HostOptions

    @Argument(help: "The route to draw, e.g. about or convert/100/USD/EUR.")
    var route: String

    @Flag(help: "Print the Screen JSON the module produced.")
    var json = false

    func run() throws {
        let runtime = try host.makeRuntime()
        let view = runtime.makeSession().open(route)
        if json {
            print(String(decoding: try WireFormat.encode(view.screen), as: UTF8.self))
        } else {
            print(TextRenderer().render(view.screen).text)
            for url in view.openURLs { print("Open in your browser: \(ModuleText.singleLine(url))") }
        }
        if view.isHostScreen || !view.errors.isEmpty { throw ExitCode(1) }
    }
}
