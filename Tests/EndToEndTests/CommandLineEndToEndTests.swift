import DenTestSupport
import Foundation
import Testing

/// What a user sees at the command line: typos, exit statuses, --version, help, debug logs.
@Suite("den's command line: typos, exit statuses, version and logs")
struct CommandLineEndToEndTests {
    @Test("an unknown command is an error with a suggestion, not a Not found session", arguments: [
        ("plugin", "den plugins"), ("version", "den --version"), ("rnder", "den render"), ("cach", "den cache"),
    ])
    func unknownCommand(word: String, suggestion: String) throws {
        let result = try DenCommand().run([word], input: "")
        #expect(result.status == 64)
        #expect(result.stderr.contains("'\(word)' is not a den command"))
        #expect(result.stderr.contains("Did you mean `\(suggestion)`?"))
        #expect(result.stderr.contains("den run \(word)"), "says how to open a screen of that name")
        #expect(!result.stdout.contains("Not found"))
    }

    @Test("options before an unknown word are kept apart from it")
    func unknownAfterOptions() throws {
        let result = try DenCommand().run(["--plugins", "about", "zzzz"], input: "")
        #expect(result.status == 64)
        #expect(result.stderr.contains("'zzzz' is not a den command."))
        #expect(try DenCommand().run(["--plugins", "about"], input: "").status == 0, "den with options only still starts run")
    }

    @Test("a real command after options says to put the options after it, not that the command is unknown")
    func commandAfterOptions() throws {
        let den = try DenCommand()
        let result = try den.run(["--data-dir", den.temp.path("d").path, "plugins"], input: "")
        #expect(result.status == 64)
        #expect(result.stderr.contains("'plugins' is a den command, but options came before it"), "\(result.stderr)")
        #expect(!result.stderr.contains("Did you mean"))
    }

    @Test("den --version names den's version, the ABI version and the Swift toolchain")
    func version() throws {
        let result = try DenCommand().run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("den 1.0.0\n"))
        #expect(result.stdout.contains("ABI version 1, revision 5\n"))
        #expect(result.stdout.contains("Swift toolchain: Swift 6."))
    }

    @Test("den help explains folders and exit statuses; completions are generated")
    func help() throws {
        let den = try DenCommand()
        let help = try den.run(["help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Exit status: 0 success; 1"))
        #expect(help.stdout.contains("~/.local/share/den/modules"))
        let cache = try den.run(["help", "cache"])
        #expect(cache.stdout.contains("clean"))
        let bash = try den.run(["--generate-completion-script", "bash"])
        #expect(bash.status == 0)
        #expect(bash.stdout.contains("_den"))
    }

    @Test("den run on a route no module serves exits 1 when driven by a script")
    func runNotFound() throws {
        let result = try DenCommand().run(["run", "nowhere"], input: "")
        #expect(result.status == 1)
        #expect(result.stdout.contains("Not found"))
        #expect(try DenCommand().run(["run", "about"], input: "").status == 0)
    }

    @Test("den plugins exits 1 when every plugin failed")
    func everyPluginFailed() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureWrongABI", "DenFixtureEntryFails"])
        let result = try den.run(["plugins", "--no-default-modules", "--plugin-dir", folder.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("0 active, 2 failed"))
        #expect(result.stdout.contains("No module works"))
        // A module that described itself before failing is named; a file refused before any of
        // its code ran (another ABI version, no manifest) can only be named by its file.
        #expect(result.stdout.contains("FAILED  failing  \(folder.path)/libDenFixtureEntryFails.so\n        error: its entry point returned DEN_ERR_SERVICE (6)"),
                "\(result.stdout)")
        #expect(result.stdout.contains("FAILED  (unknown module)  \(folder.path)/libDenFixtureWrongABI.so"))
        let json = try den.run(["plugins", "--json", "--no-default-modules", "--plugin-dir", folder.path])
        #expect(json.status == 1)
        // One broken file beside working ones is not a failure of the command.
        let mixed = try den.run(["plugins", "--plugin-dir", folder.path])
        #expect(mixed.status == 0, "\(mixed.stdout)")
    }

    @Test("--plugins naming a module that does not exist lists the ids that do, and exits 64")
    func unknownSelectedModule() throws {
        let den = try DenCommand()
        for command in [["plugins"], ["render", "about"], ["run"]] {
            let result = try den.run(command + ["--plugins", "nosuch"], input: "")
            #expect(result.status == 64, "\(command)")
            #expect(result.stderr.contains("--plugins names 'nosuch', but no plugin provides it"))
            #expect(result.stderr.contains("Modules found: \(BuildProducts.bundledModuleIDs.joined(separator: ", "))."))
        }
        let partly = try den.run(["render", "about", "--plugins", "about,mian"])
        #expect(partly.status == 64)
        #expect(partly.stderr.contains("'mian'"))
    }

    @Test("--log-level debug shows discovery, cache staging and reuse, load and build timings")
    func debugLog() throws {
        let den = try DenCommand()
        let first = try den.run(["render", "about", "--log-level", "debug"])
        #expect(first.status == 0)
        #expect(first.stderr.contains("plugin folder (bundled):"))
        #expect(first.stderr.contains("plugin folder (user):"))
        #expect(first.stderr.contains("found \(BuildProducts.bundledModuleFiles.count) plugin file(s)"))
        #expect(first.stderr.contains("loaded about 1.0.0 from"))
        #expect(first.stderr.contains("staged new copy"))
        #expect(first.stderr.contains("built about (module about) in"))
        #expect(first.stderr.contains(" ms"))
        let second = try den.run(["render", "about"], environment: ["DEN_LOG_LEVEL": "debug"])
        #expect(second.stderr.contains("reused cached copy"))
        let quiet = try den.run(["render", "about"])
        #expect(!quiet.stderr.contains("loaded about"), "the default level stays quiet")
    }
}
