import ArgumentParser
import DenHost
import DenPostgresEngine
import DenSQLiteEngine
import DenSupport
import DenTerminalText
import Foundation

/// `den data backup` and `den data check`: the storage file, looked after without loading any
/// plugin. Both work on a read-only data folder.
struct DataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "Back up or check the data folder's storage.sqlite (or the PostgreSQL database), or copy it into PostgreSQL.",
        discussion: """
        Exit status: 0 success; 1 the backup failed, or `check` found damage; 2 `check` could \
        not read the database (locked, unreadable); 64 a usage error. To restore a backup, stop \
        every den using the folder and copy the backup over storage.sqlite. With --database \
        (or DEN_DATABASE_URL) `check` checks PostgreSQL; back that up with pg_dump.
        """,
        subcommands: [Backup.self, Check.self, Migrate.self])

    struct Location: ParsableArguments {
        @Option(name: .customLong("data-dir"), help: ArgumentHelp(
            "Where modules' data is kept (default: $DEN_DATA_DIR, else $XDG_DATA_HOME/den, else ~/.local/share/den).", valueName: "dir"))
        var dataDirectory: String?

        @Option(name: .customLong("database"), help: ArgumentHelp(
            "The PostgreSQL database den serves from (also DEN_DATABASE_URL or <data dir>/database-url), instead of storage.sqlite.",
            valueName: "url"))
        var database: String?

        func validate() throws {
            if let dataDirectory {
                do { _ = try HostConfiguration.dataDirectory(option: dataDirectory) } catch { throw ValidationError(error.message) }
            }
            do { _ = try postgres() } catch { throw ValidationError(error.message) }
        }

        /// The PostgreSQL database named by --database, DEN_DATABASE_URL or the data folder's
        /// `database-url`; nil: the data folder's SQLite file.
        func postgres() throws(ServiceFailure) -> PostgresLocation? {
            guard let (url, origin) = DatabaseSetting.resolve(option: database, dataDirectory: dataDirectory) else { return nil }
            do { return try PostgresLocation(url: url) } catch { throw .invalid("\(origin): \(error.message)") }
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
            if let postgres = try location.postgres() {
                FileHandle.standardError.write(Data("""
                    Error: den data backup copies a SQLite data folder; this den keeps its data in PostgreSQL at \(postgres). \
                    Back that up with PostgreSQL's own tool, e.g. pg_dump --format=custom --file den.dump --table 'den_*' <the same URL>, \
                    and restore it with pg_restore (docs/DEPLOY.md, "Backups").\n
                    """.utf8))
                throw ExitCode(1)
            }
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
            if let postgres = try location.postgres() {
                let engine = PostgresStorageEngine(location: postgres)
                do {
                    let report = try engine.check()
                    print("PostgreSQL at \(postgres) is reachable, at den schema version \(report.schemaVersion): \(report.entries) entries of \(report.modules) module(s), \(report.bytes) bytes. PostgreSQL checks its own pages; pg_amcheck checks them in depth.")
                    return
                } catch {
                    FileHandle.standardError.write(Data("Error: could not check: \(error.message)\n".utf8))
                    throw ExitCode(2)
                }
            }
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

    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Copy a SQLite data folder's storage into PostgreSQL and check the copy (den data migrate --to postgres://…).",
            discussion: """
            Copies every module's entries in one transaction (all or nothing), then reads each \
            module back and compares. Refuses a database that already holds den entries unless \
            --replace (its keys are then overwritten; other keys stay). Stop every den using the \
            data folder first, so nothing changes during the copy.
            """)
        @Option(name: .customLong("data-dir"), help: ArgumentHelp(
            "The data folder to copy (default: $DEN_DATA_DIR, else $XDG_DATA_HOME/den, else ~/.local/share/den).", valueName: "dir"))
        var dataDirectory: String?

        @Option(name: .customLong("to"), help: ArgumentHelp("The PostgreSQL database to copy into: postgres://user:password@host/db.", valueName: "url"))
        var target: String

        @Flag(name: .customLong("replace"), help: "Copy into a database that already holds den entries, overwriting the same keys.")
        var replace = false

        func validate() throws {
            if let dataDirectory {
                do { _ = try HostConfiguration.dataDirectory(option: dataDirectory) } catch { throw ValidationError(error.message) }
            }
            do { _ = try PostgresLocation(url: target) } catch { throw ValidationError("--to: \(error.message)") }
        }

        func run() throws {
            let folder = try dataDirectory.map { try HostConfiguration.dataDirectory(option: $0) } ?? HostConfiguration.defaultDataDirectory()
            let source = SQLiteStorageEngine(directory: folder)
            defer { source.close() }
            guard FileManager.default.fileExists(atPath: source.fileURL.path) else {
                FileHandle.standardError.write(Data("Error: there is nothing to copy: \(folder.path) holds no \(SQLiteStorageEngine.fileName). Check --data-dir or DEN_DATA_DIR.\n".utf8))
                throw ExitCode(1)
            }
            let target = PostgresStorageEngine(location: try PostgresLocation(url: self.target))
            do {
                let present = try target.entryCount()
                if present > 0 && !replace {
                    FileHandle.standardError.write(Data("Error: PostgreSQL at \(target.location) already holds \(present) den entries; nothing was copied. Copy into an empty database, or add --replace to overwrite the same keys.\n".utf8))
                    throw ExitCode(1)
                }
                let line = ProgressLine(width: TerminalWidth.current(descriptor: STDERR_FILENO))
                let summary: PostgresCopySummary
                do {
                    defer { line.finish() }
                    summary = try target.copy(from: source) { step in
                        switch step {
                        case .reading(let done, let total): line.update("Reading", done: done, total: total, unit: "modules")
                        case .writing(let entries): line.update("Writing \(entries) entries in one transaction")
                        case .checking(let done, let total): line.update("Checking", done: done, total: total, unit: "modules")
                        }
                    }
                }
                print("Copied \(summary.entries) entries of \(summary.modules) module(s) from \(source.fileURL.path) into PostgreSQL at \(target.location), and read every one back the same.")
                print("Start den with --database (or DEN_DATABASE_URL) naming that database to use it.")
            } catch let failure as ServiceFailure {
                FileHandle.standardError.write(Data("Error: \(failure.message)\n".utf8))
                throw ExitCode(1)
            }
        }
    }
}
