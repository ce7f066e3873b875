import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Figure 3: wall time of a whole `den render about` process (start, load the bundled plugins,
/// resolve the route, build the screen, print it, exit) against a hello-world Swift executable.
/// Every command is started with `posix_spawn`, standard output and error to /dev/null, and timed
/// from just before the spawn to just after `waitpid` returns; the commands take turns (the order
/// rotates every run).
///
/// Besides the two that make the figure, a few more commands are timed the same way to show where
/// `den`'s time goes (printed as a breakdown, not judged): hello world with Foundation, with
/// Foundation + FoundationNetworking, `den` loading no plugin, and `den` loading only About; and
/// a small C program (compiled here) that exits at once, or `dlopen`s the release About (built on
/// DenKit, which imports FoundationEssentials only) or Main (Foundation and FoundationXML): what
/// loading a module costs a host that has not loaded Foundation itself.
struct ProcessBench {
    struct Command {
        var label: String
        var path: String
        var arguments: [String]
        /// `den render` exits 1 when no module serves the route; that is expected with no plugins.
        var expectedStatus: Int32 = 0
        var samples = Samples()
    }

    struct Result {
        var commands: [Command] = []
        var failures: [String] = []
        func samples(_ label: String) -> Samples { commands.first { $0.label == label }?.samples ?? Samples() }
    }

    static let den = "den render about"
    static let hello = "hello"

    let denPath: String
    let helloFolder: URL
    let runs: Int
    let breakdown: Bool
    let workDirectory: URL

    func run() throws -> Result {
        let emptyPluginFolder = workDirectory.appendingPathComponent("no-plugins", isDirectory: true)
        try FileManager.default.createDirectory(at: emptyPluginFolder, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["DEN_CACHE_DIR"] = workDirectory.appendingPathComponent("cache").path
        environment["DEN_DATA_DIR"] = workDirectory.appendingPathComponent("data").path
        // The per-user modules folder must not add plugins of whoever runs the benchmark.
        environment["XDG_DATA_HOME"] = workDirectory.appendingPathComponent("xdg").path
        environment.removeValue(forKey: "DEN_PLUGIN_PATH")
        environment.removeValue(forKey: "DEN_LOG_LEVEL")
        let envp = environment.map { "\($0.key)=\($0.value)" }

        var commands = [
            Command(label: Self.den, path: denPath, arguments: ["render", "about"]),
            Command(label: Self.hello, path: helloFolder.appendingPathComponent("hello").path, arguments: []),
        ]
        if breakdown {
            commands += [
                Command(label: "hello + Foundation", path: helloFolder.appendingPathComponent("hello-foundation").path, arguments: []),
                Command(label: "hello + Foundation + FoundationNetworking",
                        path: helloFolder.appendingPathComponent("hello-networking").path, arguments: []),
                Command(label: "den render about, no plugins", path: denPath,
                        arguments: ["render", "about", "--no-default-modules", "--plugin-dir", emptyPluginFolder.path],
                        expectedStatus: 1),
                Command(label: "den render about --plugins about", path: denPath,
                        arguments: ["render", "about", "--plugins", "about"]),
                // The same command in den-commands (Foundation, swift-argument-parser), which
                // `den` hands every other command to.
                Command(label: "den-commands render about", path: URL(fileURLWithPath: denPath).deletingLastPathComponent()
                            .appendingPathComponent("den-commands").path, arguments: ["render", "about"]),
            ]
        }
        if breakdown {
            let host = try Self.compileDlopenHost(in: workDirectory)
            let folder = URL(fileURLWithPath: denPath).deletingLastPathComponent()
            commands += [
                Command(label: "C program, exits at once", path: host.path, arguments: []),
                Command(label: "C program, dlopen libAboutModule.so", path: host.path,
                        arguments: [folder.appendingPathComponent("libAboutModule.so").path]),
                Command(label: "C program, dlopen libMainModule.so", path: host.path,
                        arguments: [folder.appendingPathComponent("libMainModule.so").path]),
            ]
        }
        var result = Result()

        // Warm-ups: the first `den` run copies the plugins into its (fresh) cache; later runs reuse
        // the copies, as every start after the first does. All binaries get into the page cache.
        for _ in 0..<5 {
            for command in commands {
                let (status, _) = try TimedSpawn.run(command.path, command.arguments, envp)
                if status != command.expectedStatus {
                    result.failures.append("\(command.path) \(command.arguments.joined(separator: " ")) exited with \(status)")
                    result.commands = commands
                    return result
                }
            }
        }
        for run in 0..<runs {
            for offset in 0..<commands.count {
                let index = (run + offset) % commands.count
                let (status, elapsed) = try TimedSpawn.run(commands[index].path, commands[index].arguments, envp)
                if status != commands[index].expectedStatus {
                    result.failures.append("\(commands[index].label): run \(run) exited with \(status)")
                }
                commands[index].samples.add(elapsed)
            }
        }
        result.commands = commands
        return result
    }

    /// A C program that `dlopen`s its argument (RTLD_NOW, as den does) and exits; 1 if it cannot.
    static func compileDlopenHost(in folder: URL) throws -> URL {
        let source = folder.appendingPathComponent("dlopen_host.c"), binary = folder.appendingPathComponent("dlopen-host")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("""
            #include <dlfcn.h>
            int main(int argc, char **argv) { return argc < 2 || dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) ? 0 : 1; }
            """.utf8).write(to: source)
        let (status, _) = try TimedSpawn.run("/usr/bin/cc", ["-O2", source.path, "-o", binary.path, "-ldl"])
        guard status == 0 else { throw BenchError("cc could not build the dlopen host (exit \(status))") }
        return binary
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
