import DenTestSupport
import Foundation
import Testing

/// Storage as a user meets it through the built `den`: the file after a quit, `den data backup`
/// and `den data check`, a full disk, a read-only folder, unreadable saved values, `--data-dir ''`.
@Suite("Storage that tells the truth, end to end")
struct StorageEndToEndTests {
    static let saveAmount = "set amount 42\nconvert\nquit\n"

    @Test("after a clean quit storage.sqlite alone holds the saved values (no -wal file left)")
    func cleanQuit() throws {
        let den = try DenCommand()
        #expect(try den.run(["run", "main"], input: Self.saveAmount).status == 0)
        let data = den.temp.path("data")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path).sorted() == ["storage.sqlite"])

        // Only the one file, copied into a fresh data folder, brings the values back.
        let copy = try den.temp.folder("copy")
        _ = try den.temp.copy(data.appendingPathComponent("storage.sqlite"), into: copy)
        let restarted = try den.run(["render", "main", "--data-dir", copy.path])
        #expect(restarted.stdout.contains("42 USD = "), "\(restarted.stdout)")
    }

    @Test("den data backup writes one consistent file that restores the values, and never overwrites")
    func backup() throws {
        let den = try DenCommand()
        #expect(try den.run(["run", "main"], input: Self.saveAmount).status == 0)
        let file = den.temp.path("backup.sqlite")
        let made = try den.run(["data", "backup", file.path])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("Backed up 1 entries of 1 module(s)"), "\(made.stdout)")
        // One self-contained file: nothing beside it, no partial file left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: den.temp.url.path).filter { $0.hasPrefix("backup") || $0.hasPrefix(".backup") } == ["backup.sqlite"])

        let restored = try den.temp.folder("restored")
        _ = try den.temp.copy(file, into: restored, as: "storage.sqlite")
        #expect(try den.run(["render", "main", "--data-dir", restored.path]).stdout.contains("42 USD = "))

        let again = try den.run(["data", "backup", file.path])
        #expect(again.status == 1)
        #expect(again.stderr.contains("\(file.path) already exists; den never overwrites a file"), "\(again.stderr)")
    }

    @Test("den data backup with no storage yet says there is nothing to back up")
    func backupNothing() throws {
        let den = try DenCommand()
        let result = try den.run(["data", "backup", den.temp.path("b.sqlite").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("there is nothing to back up"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: den.temp.path("b.sqlite").path))
    }

    @Test("den data check: 0 when healthy or empty, 1 with SQLite's findings when damaged")
    func check() throws {
        let den = try DenCommand()
        let empty = try den.run(["data", "check"])
        #expect(empty.status == 0)
        #expect(empty.stdout.contains("does not exist yet"), "\(empty.stdout)")

        #expect(try den.run(["config", "set", "main", "rates_url", "https://example.org/x.xml"]).status == 0)
        let healthy = try den.run(["data", "check"])
        #expect(healthy.status == 0, "\(healthy.stderr)")
        #expect(healthy.stdout.contains("is healthy: 1 entries of 1 module(s)"), "\(healthy.stdout)")

        let file = den.temp.path("data/storage.sqlite")
        try Data(String(repeating: "not a database\n", count: 300).utf8).write(to: file)
        let damaged = try den.run(["data", "check"])
        #expect(damaged.status == 1)
        #expect(damaged.stdout.contains("is damaged"), "\(damaged.stdout)")
        #expect(damaged.stdout.contains("Restore it from a backup"))
    }

    @Test("a backup into a folder that cannot hold files is not called a full disk")
    func backupToPseudoFileSystem() throws {
        let den = try DenCommand()
        #expect(try den.run(["config", "set", "main", "fetch_timeout", "12"]).status == 0)
        let result = try den.run(["data", "backup", "/proc/den-backup.sqlite"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/proc/den-backup.sqlite"), "\(result.stderr)")
        #expect(!result.stderr.contains("disk is full"), "\(result.stderr)")
    }

    @Test("--data-dir '' is refused instead of writing storage.sqlite into the current folder",
          arguments: [["render", "main"], ["run", "main"], ["data", "check"], ["data", "backup", "x.sqlite"]])
    func emptyDataDir(command: [String]) throws {
        let den = try DenCommand()
        let result = try den.run(command + ["--data-dir", ""], input: "quit\n")
        #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("--data-dir is empty"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/storage.sqlite"))
    }

    @Test("saved values that cannot be read are said so in a banner, not replaced by silent defaults")
    func unreadableSavedValues() throws {
        let den = try DenCommand()
        let folder = try den.temp.folder("data")
        try Data(String(repeating: "my notes, not a database\n", count: 300).utf8)
            .write(to: folder.appendingPathComponent("storage.sqlite"))
        let result = try den.run(["render", "main"])
        // The banner wraps to the terminal's width; compare its words.
        let words = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("Your last conversion could not be read back"), "\(result.stdout)")
        #expect(words.contains("is not a SQLite database"))
    }
}

/// Mounts need root (or CAP_SYS_ADMIN): tests that need one say so instead of passing silently.
enum Mounts {
    static let available: Bool = {
        guard getuid() == 0, let folder = try? TemporaryDirectory("den-mount-probe") else { return false }
        let target = folder.path("m")
        try? FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        guard run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", target.path]) else { return false }
        return run(["umount", target.path])
    }()

    @discardableResult
    static func run(_ arguments: [String]) -> Bool {
        guard let result = try? ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), arguments) else { return false }
        return result.status == 0
    }
}

@Suite("Storage on full and read-only disks, end to end", .serialized,
       .enabled(if: Mounts.available, "needs root to mount a 1 MB tmpfs and a read-only bind mount"))
struct StorageDiskEndToEndTests {
    @Test("a full disk is 'the disk is full' naming the folder; saved values still read and stay intact")
    func fullDisk() throws {
        let den = try DenCommand()
        let disk = try den.temp.folder("disk")
        try #require(Mounts.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", disk.path]))
        defer { Mounts.run(["umount", "-l", disk.path]) }
        let data = disk.appendingPathComponent("data")
        #expect(try den.run(["config", "set", "main", "rates_url", "https://example.org/a.xml", "--data-dir", data.path]).status == 0)
        // Fill the disk to the last byte.
        Mounts.run(["sh", "-c", "cat /dev/zero > '\(disk.path)/filler' 2>/dev/null; true"])

        let big = "https://example.org/" + String(repeating: "x", count: 60_000) + ".xml"
        let full = try den.run(["config", "set", "main", "rates_url", big, "--data-dir", data.path])
        #expect(full.status == 1)
        #expect(full.stderr.contains("the disk is full (no space left for the data folder \(data.path))"), "\(full.stderr)")
        #expect(!full.stderr.contains("disk I/O error"))
        #expect(full.stderr.contains("Nothing was written"))

        let shown = try den.run(["config", "show", "main", "--data-dir", data.path])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("rates_url = https://example.org/a.xml"), "\(shown.stdout)")

        try FileManager.default.removeItem(at: disk.appendingPathComponent("filler"))
        #expect(try den.run(["config", "set", "main", "fetch_timeout", "20", "--data-dir", data.path]).status == 0)
        #expect(try den.run(["data", "check", "--data-dir", data.path]).stdout.contains("is healthy: 2 entries"))
    }

    @Test("under den serve a full disk refuses a save on the form, with the typed values kept; every acknowledged jog survives a restart")
    func fullDiskUnderServe() throws {
        let den = try DenCommand()
        let disk = try den.temp.folder("disk")
        try #require(Mounts.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", disk.path]))
        defer { Mounts.run(["umount", "-l", disk.path]) }
        let environment = ["DEN_DATA_DIR": disk.appendingPathComponent("data").path, "DEN_CACHE_DIR": den.temp.path("cache").path,
                           "XDG_DATA_HOME": den.temp.path("xdg").path, "DEN_PLUGIN_PATH": ""]
        #expect(try den.run(["users", "add", "alice", "--data-dir", disk.appendingPathComponent("data").path],
                            input: DeploymentEndToEndTests.password + "\n").status == 0)
        let port = try PostgresCluster.freePort()
        var host = try ServedDen(BuildProducts.den, arguments: ["serve", "--port", "\(port)"], environment: environment)
        defer { host.stop() }
        let browser = DeploymentEndToEndTests.ProxiedBrowser(port: port)
        try browser.logIn("alice")
        Mounts.run(["sh", "-c", "cat /dev/zero > '\(disk.path)/filler' 2>/dev/null; true"])

        // SQLite's write-ahead log may still hold a few pages: save until the disk refuses one.
        var acknowledged: [Int] = []
        var refusedDistance: String?
        for attempt in 10..<99 {
            try browser.get("/jogs/new")
            let distance = "7.\(attempt)"
            let reply = try browser.post([("_route", "jogs/new"), ("_action", "save"), ("f.date", "2026-11-20"),
                                          ("f.distance", distance), ("f.duration", "40:00")])
            let location = DeploymentEndToEndTests.ProxiedBrowser.location(reply)
            if location == "/jogs/new" { refusedDistance = distance; break }
            let id = try #require(location.flatMap { Int($0.dropFirst("/jogs/".count)) }, "saved or refused: \(reply.head)")
            acknowledged.append(id)
        }
        let distance = try #require(refusedDistance, "the full disk refused a save")
        let form = try browser.get("/jogs/new")
        #expect(form.body.contains("the disk is full"), "the refusal is on the form: \(form.body)")
        #expect(form.body.contains("value=\"\(distance)\""), "the typed distance is still in its field")
        #expect(form.body.contains("Log out"), "still logged in")

        // Space again: the same form saves, and a restart brings back every acknowledged jog.
        try FileManager.default.removeItem(at: disk.appendingPathComponent("filler"))
        let saved = try browser.post([("_route", "jogs/new"), ("_action", "save"), ("f.date", "2026-11-20"),
                                      ("f.distance", distance), ("f.duration", "40:00")])
        let id = try #require(DeploymentEndToEndTests.ProxiedBrowser.location(saved).flatMap { Int($0.dropFirst("/jogs/".count)) },
                              "saved once space is back: \(saved.head)")
        host.stop()
        host = try ServedDen(BuildProducts.den, arguments: ["serve", "--port", "\(port)"], environment: environment)
        for jog in acknowledged + [id] {
            let page = try browser.get("/jogs/\(jog)")
            #expect(page.status == 200 && page.body.contains("Jog of 2026-11-20"), "jog \(jog) after the restart: \(page.head)")
        }
    }

    @Test("a read-only data folder still lets config show and screens read; writes say why they fail")
    func readOnly() throws {
        let den = try DenCommand()
        #expect(try den.run(["run", "main"], input: StorageEndToEndTests.saveAmount).status == 0)
        #expect(try den.run(["config", "set", "main", "rates_url", "https://example.org/a.xml"]).status == 0)
        let mounted = try den.temp.folder("readonly")
        try #require(Mounts.run(["mount", "--bind", den.temp.path("data").path, mounted.path]))
        defer { Mounts.run(["umount", "-l", mounted.path]) }
        try #require(Mounts.run(["mount", "-o", "remount,bind,ro", mounted.path]))

        let shown = try den.run(["config", "show", "main", "--data-dir", mounted.path])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("rates_url = https://example.org/a.xml"))
        let screen = try den.run(["render", "main", "--data-dir", mounted.path])
        #expect(screen.status == 0, "\(screen.stderr)")
        #expect(screen.stdout.contains("42 USD = "), "\(screen.stdout)")
        #expect(try den.run(["data", "check", "--data-dir", mounted.path]).status == 0)

        let write = try den.run(["config", "set", "main", "rates_url", "https://example.org/b.xml", "--data-dir", mounted.path])
        #expect(write.status == 1)
        #expect(write.stderr.contains("den opened it read-only because the data folder \(mounted.path) is on a read-only file system. Nothing was written."), "\(write.stderr)")
    }
}
