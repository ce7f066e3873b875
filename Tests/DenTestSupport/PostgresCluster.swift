import Foundation
import Synchronization

/// A throwaway PostgreSQL cluster for tests: `initdb` into a temporary folder, `pg_ctl start` on a
/// free loopback port, removed at the end. The server refuses to run as root, so when the tests
/// run as root the folder is given to `nobody` and the server binaries run as that user.
///
/// `shared` is one cluster per test process (each test takes a database of its own with
/// `makeDatabase`); a test that stops or breaks its server starts a private one with `start()`.
/// Needs Debian's `postgresql` package (Scripts/setup.sh installs it).
package final class PostgresCluster: @unchecked Sendable {
    /// The superuser and its password (`scram-sha-256` over TCP, so a wrong password is refused).
    package static let user = "den"
    package static let password = "den-test-password"

    package let folder: URL
    package let port: Int
    private let binaries: URL
    private let runsAsNobody: Bool
    private let databaseCounter = Mutex(0)

    private static let sharedCluster = Mutex<Result<PostgresCluster, any Error>?>(nil)

    /// The process's cluster, started on first use and stopped when the process exits.
    package static func shared() throws -> PostgresCluster {
        try sharedCluster.withLock { cached in
            if let cached { return try cached.get() }
            let result = Result { try PostgresCluster.start(label: "den-pg-shared") }
            cached = result
            if case .success = result { atexit { PostgresCluster.stopSharedAtExit() } }
            return try result.get()
        }
    }

    private static func stopSharedAtExit() {
        guard case .success(let cluster)? = sharedCluster.withLock({ $0 }) else { return }
        cluster.destroy()
    }

    /// A new cluster of its own (a few seconds); `destroy()` it when done.
    package static func start(label: String = "den-pg") throws -> PostgresCluster {
        let binaries = try serverBinaries()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let runsAsNobody = getuid() == 0
        let cluster = PostgresCluster(folder: folder, port: try freePort(), binaries: binaries, runsAsNobody: runsAsNobody)
        do {
            try cluster.initialize()
            try cluster.startServer()
        } catch {
            cluster.destroy()
            throw error
        }
        return cluster
    }

    private init(folder: URL, port: Int, binaries: URL, runsAsNobody: Bool) {
        self.folder = folder
        self.port = port
        self.binaries = binaries
        self.runsAsNobody = runsAsNobody
    }

    private var dataFolder: URL { folder.appendingPathComponent("data", isDirectory: true) }
    private var logFile: URL { folder.appendingPathComponent("server.log") }

    /// The URL of `database` (default: the maintenance database `postgres`), as den takes it.
    package func url(database: String = "postgres", user: String = PostgresCluster.user,
                     password: String = PostgresCluster.password) -> String {
        "postgres://\(user):\(password)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// A fresh, empty database of its own; returns its name.
    package func makeDatabase(_ label: String = "t") throws -> String {
        let number = databaseCounter.withLock { $0 += 1; return $0 }
        let name = "den_\(label)_\(number)_\(getpid())".lowercased().filter { $0.isLetter || $0.isNumber || $0 == "_" }
        try sql("CREATE DATABASE \(name)")
        return name
    }

    /// Runs SQL through `psql` as the superuser and returns what it printed (unaligned, no headers).
    @discardableResult
    package func sql(_ statement: String, database: String = "postgres") throws -> String {
        let (status, printed) = try spawn(["/usr/bin/psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(port)",
                                           "-U", Self.user, "-d", database, "-c", statement],
                                          environment: ["PGPASSWORD": Self.password, "PGCONNECT_TIMEOUT": "10"])
        guard status == 0 else { throw ClusterFailure("psql \(statement): \(printed)") }
        return printed.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server at once (as a crash would: `immediate`), keeping its files.
    package func stopServer() throws {
        try pgCtl(["stop", "-m", "immediate", "-w"])
    }

    /// Starts the server again on the same port.
    package func startServer() throws {
        try pgCtl(["start", "-w", "-t", "60", "-l", logFile.path,
                   "-o", "-p \(port) -c listen_addresses=127.0.0.1 -c unix_socket_directories='\(folder.path)' -c fsync=off -c max_connections=200"])
    }

    /// Stops the server and removes every file.
    package func destroy() {
        _ = try? pgCtl(["stop", "-m", "immediate", "-w"])
        try? FileManager.default.removeItem(at: folder)
    }

    /// What the server logged (for failure messages).
    package var serverLog: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    private func initialize() throws {
        let passwordFile = folder.appendingPathComponent("password")
        try Data(Self.password.utf8).write(to: passwordFile)
        if runsAsNobody {
            try run(URL(fileURLWithPath: "/bin/chown"), ["-R", "nobody:nogroup", folder.path], asServer: false)
        }
        try run(binaries.appendingPathComponent("initdb"),
                ["-D", dataFolder.path, "-U", Self.user, "--pwfile", passwordFile.path, "--auth-local=trust",
                 "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync"], asServer: true)
    }

    private func pgCtl(_ arguments: [String]) throws {
        try run(binaries.appendingPathComponent("pg_ctl"), ["-D", dataFolder.path] + arguments, asServer: true)
    }

    /// Runs a server binary, as `nobody` when the tests run as root. Spawned and reaped here, not
    /// through Foundation's `Process`: `pg_ctl start` leaves a server behind, and a `Process`
    /// waiting for it was seen never to notice its exit.
    private func run(_ executable: URL, _ arguments: [String], asServer: Bool) throws {
        let full = asServer && runsAsNobody
            ? ["/usr/sbin/runuser", "-u", "nobody", "--", executable.path] + arguments
            : [executable.path] + arguments
        let (status, printed) = try spawn(full, environment: [:])
        guard status == 0 else {
            throw ClusterFailure("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed (status \(status)): \(printed)\n\(serverLog)")
        }
    }

    /// Runs `full` (a path and its arguments), its output in a file; returns its exit status
    /// (-1: killed by a signal) and what it printed on standard output and error.
    private func spawn(_ full: [String], environment extra: [String: String]) throws -> (Int32, String) {
        let output = folder.appendingPathComponent("command-\(UUID().uuidString.prefix(8)).out")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = full.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let variables: [String] = ["LC_ALL=C", "PATH=/usr/sbin:/usr/bin:/sbin:/bin"] + extra.map { "\($0.key)=\($0.value)" }
        let environment = variables.map { strdup($0) } + [nil]
        defer { for pointer in environment { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, full[0], &actions, nil, argv, environment)
        guard spawned == 0 else { throw ClusterFailure("could not start \(full[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: output)
        // WIFEXITED ? WEXITSTATUS : -1
        return (status & 0x7f == 0 ? (status >> 8) & 0xff : -1, printed)
    }

    /// The newest `/usr/lib/postgresql/<version>/bin` with `initdb` (or `$DEN_PG_BIN`).
    private static func serverBinaries() throws -> URL {
        if let explicit = ProcessInfo.processInfo.environment["DEN_PG_BIN"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        let root = URL(fileURLWithPath: "/usr/lib/postgresql", isDirectory: true)
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
            .compactMap(Int.init).sorted(by: >)
        for version in versions {
            let bin = root.appendingPathComponent("\(version)/bin", isDirectory: true)
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path) { return bin }
        }
        throw ClusterFailure("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin: run Scripts/setup.sh (Debian's postgresql package), or set DEN_PG_BIN")
    }

    /// A loopback port nobody listens on now (the kernel's pick).
    package static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClusterFailure("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw ClusterFailure("could not find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

package struct ClusterFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
