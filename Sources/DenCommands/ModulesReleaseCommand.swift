import ArgumentParser
import DenCommandLine
import DenHost
import DenIsolation
import DenSupport
import FoundationEssentials

/// `den modules release <hash|module>`: lifts the quarantine a crash loop put on a module file
/// (docs/ISOLATION.md, "Crash loops"). A running den tries the file again at its next use.
struct ModulesReleaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release",
        abstract: "Lift the quarantine of a module file that crashed in a loop, so den tries it again.")

    @Argument(help: ArgumentHelp("The file's content hash (at least its first 8 hex digits, as `den plugins` shows it) or the module id.", valueName: "hash|module"))
    var key: String

    @Option(name: .customLong("data-dir"), help: ArgumentHelp("den's data folder, where quarantine.json is (default: $DEN_DATA_DIR or ~/.local/share/den).", valueName: "dir"))
    var dataDirectory: String?

    func run() throws {
        let folder = dataDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? HostConfiguration.defaultDataDirectory()
        let book = QuarantineBook(directory: folder)
        let released = book.release(key)
        guard !released.isEmpty else {
            let known = book.entries.map { "\($0.module) (\($0.hash.prefix(12)))" }
            print(known.isEmpty ? "Nothing is quarantined." : "No quarantined file matches '\(ModuleText.singleLine(key, limit: 80))'; quarantined: \(known.joined(separator: ", ")).")
            throw ExitCode(ExitStatus.failure)
        }
        for entry in released {
            print("Released \(ModuleText.singleLine(entry.module)) (\(entry.hash.prefix(12)), \(ModuleText.singleLine(entry.file))): den tries it again at its next use.")
        }
    }
}
