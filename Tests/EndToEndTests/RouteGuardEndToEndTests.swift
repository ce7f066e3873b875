import DenTestSupport
import Foundation
import Testing

/// Route guards in the real `den` binary, with the C fixtures Tests/Fixtures/DenFixtureGuardedRoute
/// (guarded `vault...` routes and an open `lobby`; no login module) and
/// Tests/Fixtures/DenFixtureUnknownRouteFlag. `--no-default-modules` keeps any bundled module
/// that serves `login` out, so "no login module" stays true.
@Suite("den with guarded routes")
struct RouteGuardEndToEndTests {
    /// Output with line wrapping undone, so a sentence can be matched whatever the width.
    func flat(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test("den render of a guarded route without a login module explains what is missing, exit 1")
    func renderWithoutLogin() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureGuardedRoute"])
        let result = try den.run(["render", "vault/item/3", "--no-default-modules", "--plugin-dir", folder.path])
        #expect(result.status == 1)
        let text = flat(result.stdout)
        #expect(text.contains("Cannot open vault/item/3"), "\(result.stdout)")
        #expect(text.contains("vault/item/3 needs a logged-in user, but no loaded module serves the login route `login`"))
        #expect(text.contains("Add the Login module (libLoginModule.so), or another module that serves `login`, to a plugin folder"))
        #expect(!text.contains("secret contents"))
    }

    @Test("den run: the guarded builder never runs logged out, and back returns to the open screen")
    func runScript() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureGuardedRoute"])
        let result = try den.run(["run", "lobby", "--no-default-modules", "--plugin-dir", folder.path],
                                 input: "go vault\nback\ngo vault/files/a/b\nback\nquit\n")
        let text = flat(result.stdout)
        #expect(text.contains("Cannot open vault/files/a/b"), "\(result.stdout)")
        #expect(!text.contains("secret contents"))
        #expect(!text.contains("guarded builds: 1"))
        #expect(result.stdout.components(separatedBy: "guarded builds: 0").count >= 4, "the lobby, drawn three times: \(result.stdout)")
        #expect(result.status == 1, "a script that met a host screen fails, as den render does")
    }

    @Test("den plugins and den routes mark the routes that need login; plugins --json adds requires_login")
    func listings() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureGuardedRoute"])
        let options = ["--no-default-modules", "--plugin-dir", folder.path]

        let plugins = try den.run(["plugins"] + options)
        #expect(plugins.status == 0, "\(plugins.stderr)")
        #expect(flat(plugins.stdout).contains(
            "routes: vault (requires login), vault/item/<int:id> (requires login), vault/files/<path:rest> (requires login), lobby"),
            "\(plugins.stdout)")

        let json = try den.run(["plugins", "--json"] + options)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let plugin = try #require((document["plugins"] as? [[String: Any]])?.first)
        #expect(plugin["routes"] as? [String] == ["vault", "vault/item/<int:id>", "vault/files/<path:rest>", "lobby"])
        #expect(plugin["requires_login"] as? [String] == ["vault", "vault/item/<int:id>", "vault/files/<path:rest>"])

        let routes = try den.run(["routes"] + options)
        let lines = routes.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("vault ") && $0.hasSuffix("-> guarded  (requires login)") }, "\(routes.stdout)")
        #expect(lines.contains { $0.hasPrefix("lobby ") && $0.hasSuffix("-> guarded") })

        let resolved = try den.run(["routes", "--resolve", "vault/item/3"] + options)
        #expect(resolved.stdout.contains("vault/item/3 -> vault/item/<int:id> (module guarded, requires login)"), "\(resolved.stdout)")
    }

    @Test("den plugins shows a plugin with an unknown route flag as failed, with the cause and the fix")
    func unknownFlag() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureGuardedRoute", "DenFixtureUnknownRouteFlag"])
        let result = try den.run(["plugins", "--no-default-modules", "--plugin-dir", folder.path])
        let text = flat(result.stdout)
        #expect(text.contains("FAILED"), "\(result.stdout)")
        #expect(text.contains("flag bits 0x80 are unknown to this host"), "\(result.stdout)")
        #expect(text.contains("fix: the plugin was built against a newer den_module.h than this den's: update den"))
        #expect(text.contains("1 active, 1 failed"))
    }
}
