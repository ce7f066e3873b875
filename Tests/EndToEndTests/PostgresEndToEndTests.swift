import DenTestSupport
import Foundation
import Testing

/// den on PostgreSQL through the built binaries: `--database`, `DEN_DATABASE_URL`,
/// `den data migrate/check/backup`, a newer schema refused at start, a database down at start.
@Suite("den on PostgreSQL, end to end")
struct PostgresEndToEndTests {
    static let saveAmount = "set amount 42\nconvert\nquit\n"

    @Test("den data migrate copies a SQLite data folder into PostgreSQL; den then reads it there, by --database or DEN_DATABASE_URL")
    func migrate() throws {
        let cluster = try PostgresCluster.shared()
        let url = cluster.url(database: try cluster.makeDatabase("migrate"))
        let den = try DenCommand()
        #expect(try den.run(["run", "main"], input: Self.saveAmount).status == 0)

        let copied = try den.run(["data", "migrate", "--to", url])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.contains("Copied 1 entries of 1 module(s)"), "\(copied.stdout)")
        #expect(!copied.stderr.contains("\r") && !copied.stderr.contains("Reading"), "piped: no progress line: \(copied.stderr.debugDescription)")
        #expect(!copied.stdout.contains(PostgresCluster.password), "the password is never printed")

        // An empty data folder: the value can only come from PostgreSQL.
        let empty = try den.temp.folder("empty")
        let rendered = try den.run(["render", "main", "--data-dir", empty.path, "--database", url])
        #expect(rendered.stdout.contains("42 USD = "), "\(rendered.stdout)\(rendered.stderr)")
        let byEnvironment = try den.run(["render", "main", "--data-dir", empty.path], environment: ["DEN_DATABASE_URL": url])
        #expect(byEnvironment.stdout.contains("42 USD = "), "\(byEnvironment.stdout)\(byEnvironment.stderr)")

        let again = try den.run(["data", "migrate", "--to", url])
        #expect(again.status == 1)
        #expect(again.stderr.contains("already holds 1 den entries; nothing was copied"), "\(again.stderr)")
        #expect(try den.run(["data", "migrate", "--to", url, "--replace"]).status == 0)
    }

    @Test("den data check reports the PostgreSQL database; den data backup points to pg_dump instead of copying")
    func checkAndBackup() throws {
        let cluster = try PostgresCluster.shared()
        let url = cluster.url(database: try cluster.makeDatabase("check"))
        let den = try DenCommand()
        #expect(try den.run(["run", "main", "--database", url], input: Self.saveAmount).status == 0)
        let check = try den.run(["data", "check", "--database", url])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("at den schema version 3: 1 entries of 1 module(s)"), "\(check.stdout)")

        let backup = try den.run(["data", "backup", den.temp.path("b.sqlite").path], environment: ["DEN_DATABASE_URL": url])
        #expect(backup.status == 1)
        #expect(backup.stderr.contains("pg_dump"), "\(backup.stderr)")
        #expect(!FileManager.default.fileExists(atPath: den.temp.path("b.sqlite").path))
    }

    @Test("a den older than the database's schema refuses to start, saying what to do")
    func newerSchema() throws {
        let cluster = try PostgresCluster.shared()
        let database = try cluster.makeDatabase("newer")
        let url = cluster.url(database: database)
        let den = try DenCommand()
        #expect(try den.run(["data", "check", "--database", url]).status == 0)
        try cluster.sql("INSERT INTO den_schema (version) VALUES (7)", database: database)
        let result = try den.run(["run", "main", "--database", url], input: Self.saveAmount)
        #expect(result.status == 1)
        #expect(result.stderr.contains("schema version 7"), "\(result.stderr)")
        #expect(result.stderr.contains("Upgrade this den"), "\(result.stderr)")
        #expect(try cluster.sql("SELECT count(*) FROM den_entries", database: database) == "0")
    }

    @Test("the database down at start: den starts, says why storage fails, and never crashes")
    func downAtStart() throws {
        let port = try PostgresCluster.freePort()
        let den = try DenCommand()
        let result = try den.run(["render", "main", "--database", "postgres://den:secret@127.0.0.1:\(port)/den?sslmode=disable"])
        #expect(result.stderr.contains("Warning: storage: could not open PostgreSQL at den@127.0.0.1:\(port)/den"), "\(result.stderr)")
        #expect(result.stderr.contains("connection refused"), "\(result.stderr)")
        #expect(!result.stderr.contains("secret"))
        #expect(result.status < 128, "a clean exit, not a signal")
    }

    @Test("a URL den cannot read is a usage error naming where it came from")
    func badURL() throws {
        let den = try DenCommand()
        let result = try den.run(["render", "main"], environment: ["DEN_DATABASE_URL": "postgres://den:secret@host"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("DEN_DATABASE_URL: the PostgreSQL URL names no database"), "\(result.stderr)")
        #expect(!result.stderr.contains("secret"))
    }
}
