import DenTestSupport
import Foundation
import Testing

@Suite("den render, plugins and routes, run as a real process against real plugins")
struct RenderEndToEndTests {
    @Test("den render about draws the About screen from the bundled libAboutModule.so")
    func renderAbout() throws {
        let result = try DenCommand().run(["render", "about"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("About Den"))
        #expect(result.stdout.contains("Version 1.0.0"))
        #expect(result.stdout.contains("[2] Close"))
        #expect(result.stdout.contains("about 1.0.0"), "the loaded-modules list comes from the host")
    }

    @Test("den render --json prints the Screen document")
    func renderJSON() throws {
        let result = try DenCommand().run(["render", "about", "--json"])
        #expect(result.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["title"] as? String == "About Den")
        #expect(document["v"] as? Int == 1)
        let types = (document["elements"] as? [[String: Any]])?.compactMap { $0["type"] as? String } ?? []
        #expect(types.contains("button"))
        #expect(types.contains("list"))
    }

    /// A thread's default stack is as large as the stack limit; an address-space limit below it
    /// leaves den itself room to run but no room for a thread that may run module code. (Root is not held to
    /// `ulimit -u`, so the thread limit itself cannot be used here.)
    private func runWithoutRoomForThreads(_ arguments: String, input: String? = nil) throws -> ProcessResult {
        let den = try BuildProducts.require(BuildProducts.den).path
        return try DenCommand().run(["-c", "ulimit -s 500000 && ulimit -v 400000 && exec \"$0\" \(arguments)", den], input: input,
                                    executable: URL(fileURLWithPath: "/bin/bash"))
    }

    @Test("den run on a system out of threads says so and what to do, and exits 1, not a crash")
    func outOfThreads() throws {
        // Its session's steps run on a thread of their own (SessionLane), which needs a full stack.
        let result = try runWithoutRoomForThreads("run about", input: "quit\n")
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let flat = result.stderr.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("den run could not start its session's thread: the system would not start another thread"), "\(flat)")
        #expect(flat.contains("ulimit -u"))
        #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
    }

    @Test("den render runs its calls on its main thread, and the call watchdog's small stack fits where no full-size thread does")
    func renderNeedsNoThread() throws {
        let result = try runWithoutRoomForThreads("render about")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("About Den\n"), "\(result.stdout)")
    }

    @Test("an unknown route prints a Not found screen naming it and exits 1")
    func unknownRoute() throws {
        let result = try DenCommand().run(["render", "runs/42"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("Not found"))
        #expect(result.stdout.contains("runs/42"))
    }

    @Test("den plugins lists broken plugins with cause and fix while the good one stays active")
    func pluginsWithBrokenFiles() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureWrongABI", "DenFixtureDuplicateAbout"],
                                          extra: ["libEmpty.so": Data(), "libText.so": Data("hello".utf8)])
        // Only this folder: the bundled About would make the copy here a duplicate.
        let result = try den.run(["plugins", "--no-default-modules", "--plugin-dir", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("active  about 1.0.0"))
        #expect(result.stdout.contains("speaks Den ABI version 999"))
        #expect(result.stdout.contains("module id 'about' is already provided by"))
        #expect(result.stdout.contains("the file is empty"))
        #expect(result.stdout.contains("not a shared library"))
        #expect(result.stdout.contains("1 active, 4 failed"))

        let render = try den.run(["render", "about", "--plugin-dir", folder.path])
        #expect(render.status == 0)
        #expect(render.stdout.contains("About Den"))
    }

    @Test("DEN_PLUGIN_PATH names plugin folders too")
    func pluginPathVariable() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureEntryFails"])
        let result = try den.run(["plugins"], environment: ["DEN_PLUGIN_PATH": folder.path])
        #expect(result.stdout.contains("libDenFixtureEntryFails.so"))
        #expect(result.stdout.contains("libAboutModule.so"), "a named folder adds to the bundled one")
        let alone = try den.run(["plugins"], environment: ["DEN_PLUGIN_PATH": folder.path, "DEN_NO_DEFAULT_MODULES": "1"])
        #expect(!alone.stdout.contains("libAboutModule.so"), "DEN_NO_DEFAULT_MODULES=1 leaves the bundled folder out")
        #expect(alone.status == 1, "every plugin failed")
    }

    @Test("den plugins --json is machine-readable")
    func pluginsJSON() throws {
        let result = try DenCommand().run(["plugins", "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let plugins = try #require(document["plugins"] as? [[String: Any]])
        #expect(plugins.contains { $0["id"] as? String == "about" && $0["status"] as? String == "active" })
        #expect(!plugins.contains { ($0["file"] as? String)?.contains("Fixture") == true })
    }

    @Test("den routes lists patterns and resolves a route without building it")
    func routes() throws {
        let den = try DenCommand()
        let list = try den.run(["routes", "--plugins", "about"])
        #expect(list.stdout.contains("about  -> about"))

        let resolved = try den.run(["routes", "--resolve", "about?tab=modules", "--plugins", "about"])
        #expect(resolved.status == 0)
        #expect(resolved.stdout.contains("about?tab=modules -> about (module about)"))
        #expect(resolved.stdout.contains("?tab = modules"))

        let missing = try den.run(["routes", "--resolve", "nowhere"])
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("nowhere"))
    }

    @Test("a plugin folder that does not exist is reported and fails den plugins, while other folders load")
    func missingFolder() throws {
        let den = try DenCommand()
        let good = try den.pluginFolder(["AboutModule"])
        let result = try den.run(["plugins", "--plugin-dir", "/nonexistent/plugins", "--plugin-dir", good.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FOLDER  plugin folder /nonexistent/plugins: no such folder"))
        #expect(result.stdout.contains("active  about 1.0.0"))
        #expect(result.stderr.contains("/nonexistent/plugins"))
    }

    @Test("a screen that fails or loops makes den render exit 1 with the reason on screen")
    func renderFailures() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureMisbehaving"])
        for route in ["loop", "garbage-reply", "build-fails"] {
            let result = try den.run(["render", route, "--plugin-dir", folder.path])
            #expect(result.status == 1, "\(route)")
            #expect(result.stdout.contains("[ERROR]"), "\(route)")
        }
    }

    @Test("bad options get a usage message", arguments: [["render"], ["plugins", "--log-level", "loud"], ["run", "--plugins", ","]])
    func badOptions(arguments: [String]) throws {
        let result = try DenCommand().run(arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains("Error") || result.stderr.contains("error"))
    }

    @Test("--help explains every command")
    func help() throws {
        let den = try DenCommand()
        let root = try den.run(["--help"])
        for command in ["run", "render", "plugins", "routes"] {
            #expect(root.stdout.contains(command))
        }
        let plugins = try den.run(["plugins", "--help"])
        #expect(plugins.stdout.contains("--plugin-dir"))
    }
}
