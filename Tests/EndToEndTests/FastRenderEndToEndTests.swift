import DenTestSupport
import Foundation
import Testing

/// `den` runs `den render` itself and hands everything else to `den-commands`; a user must not be
/// able to tell which of the two answered, except by the time it took.
@Suite("den render's fast path answers exactly as den-commands does")
struct FastRenderEndToEndTests {
    /// Argument lists the fast path takes, and some it must leave to den-commands.
    static let argumentLists: [[String]] = [
        ["render", "about"],
        ["render", "about", "--json"],
        ["render", "--json", "about"],
        ["render", "about", "--plugins", "about"],
        ["render", "about", "--plugins=about,main", "--eager"],
        ["render", "about", "--log-level", "error", "--call-timeout=5"],
        ["render", "about", "--no-default-modules"],
        ["render", "runs/42"],
        ["render", "about", "--plugins", "nosuch"],
        ["render", "about", "--plugins", ","],
        ["render", "about", "--log-level", "loud"],
        ["render", "about", "--call-timeout", "0"],
        ["render", "about", "--data-dir", ""],
        ["render", "about", "--plugin-dir", ""],
        ["render", "about", "--json", "--json"],
        ["render", "about", "about"],
        ["render"],
        ["render", "--help"],
        ["render", "about", "--jsn"],
        ["render", "about", "--cache-dir="],
        ["render", "--cache-dir=", "about"],
        ["render", "about", "--plugins="],
    ]

    @Test("den and den-commands print the same and exit alike", arguments: argumentLists)
    func sameAnswers(arguments: [String]) throws {
        let den = try DenCommand()
        let fast = try den.run(arguments)
        let full = try den.run(arguments, executable: BuildProducts.denCommands)
        #expect(fast.status == full.status, "\(arguments): den \(fast.status), den-commands \(full.status)\n\(fast.stderr)\n\(full.stderr)")
        #expect(Self.withoutClock(fast.stdout) == Self.withoutClock(full.stdout), "\(arguments)")
        #expect(Self.withoutClock(fast.stderr) == Self.withoutClock(full.stderr), "\(arguments)")
    }

    @Test("den render loads neither Foundation nor ICU (only FoundationEssentials), nor libffi")
    func noFoundation() throws {
        let result = try DenCommand().run(["render", "about"], environment: ["LD_DEBUG": "files"])
        #expect(result.status == 0)
        let loaded = result.stderr.split(separator: "\n").filter { $0.contains("file=") }
        #expect(loaded.contains { $0.contains("libFoundationEssentials.so") }, "LD_DEBUG saw the loads: \(loaded.count) lines")
        // libffi too: it is opened when a module registers an export, and About registers none.
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libGRDB", "libsqlite3.so", "libffi.so"] {
            #expect(!loaded.contains { $0.contains("file=\(library)") || $0.contains("/\(library)") }, "\(library) was loaded")
        }
    }

    @Test("every other command reaches den-commands: den --version and den plugins answer as den-commands does")
    func otherCommands() throws {
        let den = try DenCommand()
        for arguments in [["--version"], ["plugins"], ["routes"], ["help", "render"]] {
            let fast = try den.run(arguments)
            let full = try den.run(arguments, executable: BuildProducts.denCommands)
            #expect(fast.status == full.status && fast.status == 0, "\(arguments): \(fast.stderr)")
            #expect(Self.withoutClock(fast.stdout) == Self.withoutClock(full.stdout), "\(arguments)")
        }
    }

    @Test("without den-commands beside it, den says what is missing and how to get it back, and exits 1")
    func missingFull() throws {
        let den = try DenCommand()
        let alone = try den.temp.folder("alone")
        try den.temp.copy(BuildProducts.require(BuildProducts.den), into: alone)
        let result = try den.run(["plugins"], executable: alone.appendingPathComponent("den"))
        #expect(result.status == 1)
        #expect(result.stderr.contains("den-commands"), "\(result.stderr)")
        #expect(result.stderr.contains("Scripts/build.sh"), "\(result.stderr)")
        // The fast path itself still works alone (it has no module folder here, so: not found).
        let render = try den.run(["render", "about"], executable: alone.appendingPathComponent("den"))
        #expect(render.stdout.contains("Not found"), "\(render.stdout)")
    }

    /// Load times ("loaded 2026-11-23 06:04:39 UTC") differ between two runs.
    static func withoutClock(_ text: String) -> String {
        text.replacingOccurrences(of: #"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d( UTC|Z)?"#, with: "<time>", options: .regularExpression)
    }
}
