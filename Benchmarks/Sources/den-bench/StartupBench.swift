import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Figure 7: `den render about` process time with 1, 10 and 100 installed modules, lazy (the
/// default: modules installed from their manifests, only About loaded) against `--eager` (every
/// module loaded at start), beside a hello-world baseline in the same run. The extra modules are
/// small C modules compiled here with distinct ids (`bench-m1`…), each with a manifest and one
/// route, so only the number of modules changes between the counts. Every command runs after
/// warm-ups, so the plugin cache and the registry cache are filled, as on any start after the first.
struct StartupBench {
    struct Result {
        var hello = Samples()
        /// [count: (lazy, eager)]
        var lazy: [Int: Samples] = [:]
        var eager: [Int: Samples] = [:]
        var failures: [String] = []
    }

    let denPath: String
    let helloPath: String
    let aboutPlugin: URL
    let headerFolder: URL
    let counts: [Int]
    let runs: Int
    let workDirectory: URL

    static let moduleSource = """
        #include "den_module.h"
        DEN_DEFINE_ABI_VERSION();
        DEN_DEFINE_MANIFEST("{\\"v\\": 1, \\"id\\": \\"" MODULE_ID "\\", \\"version\\": \\"1.0.0\\", \\"summary\\": \\"bench\\", \\"routes\\": [{\\"pattern\\": \\"" MODULE_ID "\\"}]}");
        static int32_t build(void *c, const den_host *h, den_bytes p, void **s, const den_instance_api **a, den_owned *e) {
            (void)c; (void)h; (void)p; (void)s; (void)a; (void)e; return DEN_ERR_UNSUPPORTED;
        }
        DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *r) {
            (void)host;
            int32_t status = r->describe(r->ctx, MODULE_ID, "1.0.0", "bench");
            return status != DEN_OK ? status : r->add_route(r->ctx, MODULE_ID, build, NULL);
        }
        """

    func run() throws -> Result {
        var result = Result()
        let sources = workDirectory.appendingPathComponent("src", isDirectory: true)
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let source = sources.appendingPathComponent("bench_module.c")
        try Data(Self.moduleSource.utf8).write(to: source)
        let maximum = counts.max() ?? 1
        var modules: [URL] = []
        for index in 1..<max(maximum, 1) {
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
        environment.removeValue(forKey: "DEN_PLUGIN_PATH")
        environment.removeValue(forKey: "DEN_LOG_LEVEL")
        environment.removeValue(forKey: "DEN_EAGER")
        let envp = environment.map { "\($0.key)=\($0.value)" }

        struct Command { var label: String; var path: String; var arguments: [String]; var count: Int; var eager: Bool; var samples = Samples() }
        var commands = [Command(label: "hello", path: helloPath, arguments: [], count: 0, eager: false)]
        for count in counts {
            // About plus count-1 bench modules, in a folder of their own.
            let folder = workDirectory.appendingPathComponent("modules-\(count)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: aboutPlugin, to: folder.appendingPathComponent("libAboutModule.so"))
            for module in modules.prefix(count - 1) {
                try FileManager.default.copyItem(at: module, to: folder.appendingPathComponent(module.lastPathComponent))
            }
            let base = ["render", "about", "--no-default-modules", "--plugin-dir", folder.path]
            commands.append(Command(label: "lazy \(count)", path: denPath, arguments: base, count: count, eager: false))
            commands.append(Command(label: "eager \(count)", path: denPath, arguments: base + ["--eager"], count: count, eager: true))
        }
        for _ in 0..<3 {
            for command in commands {
                let (status, _) = try TimedSpawn.run(command.path, command.arguments, envp)
                if status != 0 {
                    result.failures.append("\(command.label): \(command.path) \(command.arguments.joined(separator: " ")) exited with \(status)")
                    return result
                }
            }
        }
        for run in 0..<runs {
            for offset in 0..<commands.count {
                let index = (run + offset) % commands.count
                let (status, elapsed) = try TimedSpawn.run(commands[index].path, commands[index].arguments, envp)
                if status != 0 { result.failures.append("\(commands[index].label): run \(run) exited with \(status)") }
                commands[index].samples.add(elapsed)
            }
        }
        for command in commands {
            if command.count == 0 { result.hello = command.samples }
            else if command.eager { result.eager[command.count] = command.samples }
            else { result.lazy[command.count] = command.samples }
        }
        return result
    }
}
