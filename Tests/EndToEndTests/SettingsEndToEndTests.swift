import DenTestSupport
import Foundation
import Testing

/// `den config` against the built binary: modules declare their settings, and the command lists
/// and checks them (issue 7, item 3).
@Suite("Module settings, end to end")
struct SettingsEndToEndTests {
    @Test("den config show main lists every setting with its default, help and rule")
    func show() throws {
        let result = try DenCommand().run(["config", "show", "main"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("rates_url = https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml  (default)"))
        #expect(result.stdout.contains("fetch_timeout = 10  (default)"))
        #expect(result.stdout.contains("Takes a whole number from 1 to 25."))
        #expect(result.stdout.contains("Takes an http:// or https:// URL"))
    }

    @Test("the first command to create the data folder makes it private (0700), and hosting.json 0600", arguments: [
        ["config", "set", "den.hosting", "about", "isolated"],
        ["config", "set", "main", "fetch_timeout", "25"],
    ])
    func privateDataFolder(arguments: [String]) throws {
        let den = try DenCommand()
        let result = try den.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        func mode(_ path: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
        }
        let data = den.temp.path("data").path
        #expect(try mode(data) == 0o700)
        if arguments[2] == "den.hosting" {
            #expect(try mode(data + "/hosting.json") == 0o600)
        }
    }

    @Test("den dev's usage line names den dev")
    func devUsage() throws {
        let result = try DenCommand().run(["dev", "--help"])
        #expect(result.stdout.contains("USAGE: den dev <options>"), "\(result.stdout)")
        #expect(!result.stdout.contains("den serve dev"))
    }

    @Test("a set value is shown with the default beside it, and unset goes back")
    func setShowUnset() throws {
        let den = try DenCommand()
        let set = try den.run(["config", "set", "main", "fetch_timeout", "25"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try den.run(["config", "show", "main", "fetch_timeout"]).stdout.contains("fetch_timeout = 25  (default: 10)"))
        let unset = try den.run(["config", "unset", "main", "fetch_timeout"])
        #expect(unset.stdout.contains("fetch_timeout removed (the default applies: 10)"))
        #expect(try den.run(["config", "show", "main"]).stdout.contains("fetch_timeout = 10  (default)"))
    }

    @Test("a misspelt setting is refused, suggesting the right one and listing them all")
    func typo() throws {
        let den = try DenCommand()
        let result = try den.run(["config", "set", "main", "rate_url", "x"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("main has no setting 'rate_url' (did you mean rates_url?); its settings: rates_url, fetch_timeout"))
        #expect(try den.run(["config", "show", "main"]).stdout.contains("rate_url") == false, "nothing was stored")
    }

    @Test("invalid values are refused, saying what is allowed", arguments: [
        ("rates_url", "not-a-url", "takes an http:// or https:// URL"),
        ("rates_url", "ftp://example.org/r.xml", "takes an http:// or https:// URL"),
        ("fetch_timeout", "0", "a whole number from 1 to 25"),
        ("fetch_timeout", "26", "a whole number from 1 to 25"),
        ("fetch_timeout", "ten", "a whole number from 1 to 25"),
    ])
    func invalidValue(name: String, value: String, said: String) throws {
        let den = try DenCommand()
        let result = try den.run(["config", "set", "main", name, value])
        #expect(result.status == 1)
        #expect(result.stderr.contains("'\(value)' is not allowed for '\(name)'"), "\(result.stderr)")
        #expect(result.stderr.contains(said))
        #expect(try den.run(["config", "show", "main", name]).stdout.contains("(default)"), "nothing was stored")
    }

    @Test("an unknown module is an error listing the loaded ones", arguments: [["show", "nosuchmodule"], ["set", "nosuchmodule", "a", "b"], ["unset", "nosuchmodule", "a"]])
    func unknownModule(arguments: [String]) throws {
        let result = try DenCommand().run(["config"] + arguments)
        #expect(result.status == 1)
        #expect(result.stderr.contains("no module 'nosuchmodule' is loaded; loaded modules: \(BuildProducts.bundledModuleIDs.joined(separator: ", "))"), "\(result.stderr)")
    }

    @Test("a module without settings says so; an unknown name of it is an error")
    func noSettings() throws {
        let den = try DenCommand()
        #expect(try den.run(["config", "show", "about"]).stdout.contains("about declares no settings."))
        let result = try den.run(["config", "set", "about", "colour", "red"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("about declares no settings"))
    }

    @Test("den config show alone lists the modules and their settings")
    func overview() throws {
        let result = try DenCommand().run(["config", "show"])
        #expect(result.stdout.contains("main: rates_url, fetch_timeout"))
        #expect(result.stdout.contains("about: no settings"))
        #expect(result.stdout.contains("den.app: name"), "\(result.stdout)")
    }

    @Test("the app's name is the den.app setting: the terminal's menu starts with it; the bundled modules' entries follow")
    func appName() throws {
        let den = try DenCommand()
        #expect(try den.run(["config", "set", "den.app", "name", "Jog Club"]).status == 0)
        #expect(try den.run(["config", "show", "den.app"]).stdout.contains("Jog Club"))
        let session = try den.run(["run", "about"], input: "menu\nmenu 1\nquit\n")
        let menu = try #require(session.stdout.components(separatedBy: "> menu\n").dropFirst().first)
        #expect(menu.contains("Jog Club — menu\n  [1] Converter\n  [2] Jogs (log in first)\n  [3] About\n  [4] Log in"), "\(menu)")
        let opened = try #require(session.stdout.components(separatedBy: "> menu 1").last)
        #expect(opened.contains("Currency converter"), "menu 1 opens the first entry: \(opened)")
    }

    @Test("an empty rates_url means offline; Reload says so and how to undo it")
    func emptyURL() throws {
        let den = try DenCommand()
        #expect(try den.run(["config", "set", "main", "rates_url", ""]).status == 0)
        let session = try den.run(["run", "main"], input: "reload\nquit\n")
        let after = try #require(session.stdout.components(separatedBy: "> reload").last)
        #expect(after.contains("the rates stay offline"))
        #expect(after.contains("den config unset main rates_url"))
    }

    @Test("a slow server: the banner advises fetch_timeout, a real setting, never timeout_ms")
    func timeoutAdvice() throws {
        let den = try DenCommand()
        let files = try den.temp.folder("rates")
        let server = try StubHTTPServer(filesDirectory: files)
        defer { server.stop() }
        _ = try den.run(["config", "set", "main", "rates_url", server.url("/slow?ms=4000")])
        // Main asks for the ECB's host only: the operator adds the stub server's (docs/PERMISSIONS.md).
        #expect(try den.run(["modules", "grant", "main", "--http", "127.0.0.1", "--yes"]).status == 0)
        _ = try den.run(["config", "set", "main", "fetch_timeout", "1"])
        let session = try den.run(["run", "main"], input: "reload\nquit\n")
        let after = try #require(session.stdout.components(separatedBy: "> reload").last)
        #expect(!after.contains("timeout_ms"))
        #expect(!after.contains("max_bytes"))
        let flat = after.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("did not answer within 1 s"), "\(after)")
        #expect(flat.contains("den config set main fetch_timeout 25"))
    }
}
