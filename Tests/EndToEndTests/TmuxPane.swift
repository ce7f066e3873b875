import DenTestSupport
import Foundation

/// A real terminal for end-to-end tests: `den run` in a detached tmux pane of a chosen size, on a
/// private tmux server. Keys go in with send-keys; the screen comes back with capture-pane.
/// Every wait polls the pane against a deadline (no fixed sleeps).
final class TmuxPane {
    struct Missing: Error, CustomStringConvertible {
        var description: String { "tmux is not installed: run Scripts/setup.sh (it installs tmux for these tests)" }
    }

    struct Timeout: Error, CustomStringConvertible {
        var what: String
        var screen: String
        var description: String { "timed out waiting for \(what); the pane shows:\n\(screen)" }
    }

    /// A private server's socket, inside the test's temporary folder (removed with it).
    private let socket: String
    private let tmux: URL

    /// Starts `den <arguments>` in a `columns`×`rows` pane. When den ends, the pane prints
    /// "[den exited N]" and stays open so its last screen can still be read.
    init(den: DenCommand, _ arguments: [String], columns: Int, rows: Int = 200, environment: [String: String] = [:],
         stderrToFile: URL? = nil) throws {
        guard let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first(where: FileManager.default.isExecutableFile)
        else { throw Missing() }
        self.tmux = URL(fileURLWithPath: tmux)
        socket = den.temp.path("tmux-\(UUID().uuidString.prefix(8)).sock").path
        var variables = [
            "DEN_CACHE_DIR": den.temp.path("cache").path, "DEN_DATA_DIR": den.temp.path("data").path,
            "DEN_PLUGIN_PATH": "", "TERM": "xterm-256color", "LANG": "C.UTF-8",
        ]
        variables.merge(environment) { $1 }
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value))" }
        // NO_COLOR must be absent unless a test sets it; the test runner's own value is dropped.
        let unset = environment["NO_COLOR"] == nil ? "-u NO_COLOR -u FORCE_COLOR " : ""
        var command = "env \(unset)\(assignments.joined(separator: " ")) \(Self.quote(try BuildProducts.require(BuildProducts.den).path)) "
            + arguments.map(Self.quote).joined(separator: " ")
        if let stderrToFile { command += " 2>>\(Self.quote(stderrToFile.path))" }
        command += "; echo \"[den exited $?]\"; sleep 600"
        try run(["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", command])
    }

    deinit {
        _ = try? run(["kill-server"])
    }

    /// Types keys: literal text, or tmux key names such as "Enter", "Left", "Up", "C-a", "C-c".
    func send(_ keys: String...) throws {
        try run(["send-keys", "-t", "0"] + keys)
    }

    /// Types text literally (no key-name lookup), e.g. a password.
    func type(_ text: String) throws {
        try run(["send-keys", "-t", "0", "-l", text])
    }

    /// The whole pane, scrollback included. `joined` undoes the terminal's own wrapping (so a
    /// line longer than the pane comes back as one line); `escapes` keeps colour codes. tmux
    /// drops trailing spaces (so does this, with -J too): the prompt reads "den>".
    func screen(joined: Bool = false, escapes: Bool = false) throws -> String {
        var arguments = ["capture-pane", "-p", "-t", "0", "-S", "-"]
        if joined { arguments.append("-J") }
        if escapes { arguments.append("-e") }
        // The pane's empty rows below the cursor are dropped, so the text ends with its last line.
        var lines = try run(arguments).split(separator: "\n", omittingEmptySubsequences: false).map {
            var line = String($0)
            while line.last == " " { line.removeLast() }
            return line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Polls until `condition` holds for the pane's text, or throws after `seconds`.
    @discardableResult
    func waitFor(_ what: String, within seconds: Double = 20, joined: Bool = false, escapes: Bool = false,
                 _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let text = try screen(joined: joined, escapes: escapes)
            if condition(text) { return text }
            guard Date() < deadline else { throw Timeout(what: what, screen: text) }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Waits until `text` appears `count` times (e.g. the n-th prompt).
    @discardableResult
    func waitFor(_ text: String, count: Int = 1, within seconds: Double = 20) throws -> String {
        try waitFor("'\(text)' ×\(count)", within: seconds) { $0.components(separatedBy: text).count - 1 >= count }
    }

    /// Runs one tmux command and returns what it printed. Not through Foundation's `Process`:
    /// a tmux client exits within milliseconds after forking its server, and `waitUntilExit`
    /// was seen to miss that exit inside the test runner and hang; posix_spawn + waitpid cannot.
    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("den-tmux-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The runner's threads block signals; tmux and den must start with none blocked.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = ([tmux.path, "-S", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, tmux.path, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw Timeout(what: "tmux could not start (error \(spawned))", screen: "") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let exited = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        guard exited == 0 || arguments.first == "kill-server" else {
            throw Timeout(what: "tmux \(arguments.prefix(3).joined(separator: " ")) (status \(exited))", screen: text)
        }
        return text
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
