import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Figure 13: `den render about` with 1 and 100 modules installed, every one signed and the
/// trust policy `require-signature`, beside the same modules unsigned under `allow` in the same
/// run (lazy starts, the default). After the warm-ups the signature cache holds every verdict, as
/// on any start after the first, so a signed start stats each signature and hashes nothing.
/// The modules are StartupBench's C modules (About plus distinct `bench-m…` ids).
struct SigningBench {
    struct Result {
        var unsigned: [Int: Samples] = [:]
        var signed: [Int: Samples] = [:]
        var failures: [String] = []
    }

    let denPath: String
    let aboutPlugin: URL
    let headerFolder: URL
    let counts: [Int]
    let runs: Int
    let workDirectory: URL

    func run() throws -> Result {
        var result = Result()
        let sources = workDirectory.appendingPathComponent("src", isDirectory: true)
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let source = sources.appendingPathComponent("bench_module.c")
        try Data(StartupBench.moduleSource.utf8).write(to: source)
        var modules: [URL] = []
        for index in 1..<max(counts.max() ?? 1, 1) {
            let output = sources.appendingPathComponent("libBenchM\(index)Module.so")
            let (status, _) = try TimedSpawn.run("/usr/bin/cc", ["-shared", "-fPIC", "-O1", "-I", headerFolder.path,
                                                        "-DMODULE_ID=\"bench-m\(index)\"", source.path, "-o", output.path], [])
            guard status == 0 else { throw BenchError("cc could not build the bench module \(index) (exit \(status))") }
            modules.append(output)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DEN_CACHE_DIR"] = workDirectory.appendingPathComponent("cache").path
        environment["DEN_DATA_DIR"] = workDirectory.appendingPathComponent("data").path
        environment["XDG_DATA_HOME"] = workDirectory.appendingPathComponent("xdg").path
        environment["DEN_CONFIG_DIR"] = workDirectory.appendingPathComponent("config").path
        for name in ["DEN_PLUGIN_PATH", "DEN_LOG_LEVEL", "DEN_EAGER", "DEN_TRUST_POLICY"] { environment.removeValue(forKey: name) }
        let envp = environment.map { "\($0.key)=\($0.value)" }
        let (made, _) = try TimedSpawn.run(denPath, ["keys", "generate", "bench"], envp)
        guard made == 0 else { throw BenchError("den keys generate failed (exit \(made))") }

        struct Command { var label: String; var arguments: [String]; var count: Int; var signed: Bool; var samples = Samples() }
        var commands: [Command] = []
        for count in counts {
            var folders: [Bool: URL] = [:]
            for signed in [false, true] {
                let folder = workDirectory.appendingPathComponent("modules-\(count)-\(signed ? "signed" : "unsigned")", isDirectory: true)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let files = [aboutPlugin] + modules.prefix(count - 1)
                for file in files {
                    let copy = folder.appendingPathComponent(file.lastPathComponent)
                    try FileManager.default.copyItem(at: file, to: copy)
                    if signed {
                        let (status, _) = try TimedSpawn.run(denPath, ["modules", "sign", copy.path, "--key", "bench"], envp)
                        guard status == 0 else { throw BenchError("den modules sign \(copy.lastPathComponent) failed (exit \(status))") }
                    }
                }
                folders[signed] = folder
            }
            for signed in [false, true] {
                let arguments = ["render", "about", "--no-default-modules", "--plugin-dir", folders[signed]!.path,
                                 "--trust-policy", signed ? "require-signature" : "allow"]
                commands.append(Command(label: "\(signed ? "signed" : "unsigned") \(count)", arguments: arguments, count: count, signed: signed))
            }
        }
        for _ in 0..<3 {
            for command in commands {
                let (status, _) = try TimedSpawn.run(denPath, command.arguments, envp)
                if status != 0 {
                    result.failures.append("\(command.label): den \(command.arguments.joined(separator: " ")) exited with \(status)")
                    return result
                }
            }
        }
        for run in 0..<runs {
            for offset in 0..<commands.count {
                let index = (run + offset) % commands.count
                let (status, elapsed) = try TimedSpawn.run(denPath, commands[index].arguments, envp)
                if status != 0 { result.failures.append("\(commands[index].label): run \(run) exited with \(status)") }
                commands[index].samples.add(elapsed)
            }
        }
        for command in commands {
            if command.signed { result.signed[command.count] = command.samples } else { result.unsigned[command.count] = command.samples }
        }
        return result
    }
}
