import ArgumentParser
import DenHost
import DenSQLiteEngine
import Foundation

/// `den data backup` and `den data check`: the storage file, looked after without loading any
/// plugin. Both work on a read-only data folder.
struct DataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "Back up or check the data folder's storage.sqlite.",
        discussion: """
        Exit status: 0 success; 1 the backup failed, or `check` found damage; 2 `check` could \
        not read the database (locked, unreadable); 64 a usage error. To restore a backup, stop \
        every den using the folder and copy the backup over storage.sqlite.
        """,
        subcommands: [Backup.self, Check.self])

    struct Location: ParsableArguments {
        @Option(name: .customLong("data-dir"), help: ArgumentHelp(
            "Where modules' data is kept (default: $DEN_DATA_DIR, else $XDG_DATA_HOME/den, else ~/.local/share/den).", valueName: "dir"))
        var dataDirectory: String?

        func validate() throws {
            if let dataDirectory {
                do { _ = try HostConfiguration.dataDirectory(option: dataDirectory) } catch { throw ValidationError(error.message) }
            }
        }

        func engine() throws -> SQLiteStorageEngine {
            let folder = try dataDirectory.map { try HostConfiguration.dataDirectory(option: $0) }
                ?? HostConfiguration.defaultDataDirectory()
            return SQLiteStorageEngine(directory: folder)
        }
    }

    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backup",
            abstract: "Copy storage.sqlite into one consistent file (safe while den runs); never overwrites.")
        @OptionGroup var location: Location
        @Argument(help: "The new backup file, e.g. den-backup.sqlite.") var file: String

        func validate() throws {
            guard !file.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("name the backup file, e.g. den data backup ~/den-backup.sqlite")
            }
        }

        func run() throws {
            let engine = try location.engine()
            defer { engine.close() }
            let summary = try engine.backup(to: URL(fileURLWithPath: file))
            print("Backed up \(summary.entries) entries of \(summary.modules) module(s) from \(engine.fileURL.path) to \(summary.file.path) (\(summary.bytes) bytes).")
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Run SQLite's integrity check on storage.sqlite (exit 0 healthy, 1 damaged, 2 could not check).")
        @OptionGroup var location: Location

        func run() throws {
            let engine = try location.engine()
            defer { engine.close() }
            let report: StorageCheckReport
            do {
                report = try engine.check()
            } catch {
                FileHandle.standardError.write(Data("Error: could not check: \(error)\n".utf8))
                throw ExitCode(2)
            }
            switch report.outcome {
            case .noDatabase:
                print("\(report.file.path) does not exist yet: nothing has been saved in this data folder, so there is nothing to check.")
            case .healthy:
                print("\(report.file.path) is healthy: \(report.entries) entries of \(report.modules) module(s), \(report.bytes) bytes.")
            case .damaged(let problems):
                print("\(report.file.path) is damaged. SQLite found:")
                for problem in problems.prefix(20) { print("  \(problem)") }
                if problems.count > 20 { print("  … and \(problems.count - 20) more") }
                print("Restore it from a backup (stop den, copy the backup over it), or move it aside and den starts with empty storage.")
                throw ExitCode(1)
            }
        }
    }
}
