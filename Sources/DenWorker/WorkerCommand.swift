import CDenSandbox
import DenHost
#if canImport(Glibc)
import DenIsolation
import DenSupport
import Glibc
#endif

/// `den worker --fd N [--sandbox] [--memory-limit BYTES] [--readable PATH]... <module copy>`: the
/// hidden mode in which den runs one isolated module for a host that started it
/// (docs/ISOLATION.md). Not for people: the host writes this command line.
public enum WorkerCommand {
    /// The worker's exit status, or nil when `arguments` (without the program name) is not a
    /// worker command line.
    public static func run(_ arguments: ArraySlice<String>) -> Int32? {
        guard arguments.first == WorkerProtocol.command else { return nil }
        var fd: Int32?
        var sandbox = false
        var memoryLimit: UInt64?
        var readable: [String] = []
        var module: String?
        var rest = arguments.dropFirst()
        while let word = rest.popFirst() {
            switch word {
            case "--fd": fd = rest.popFirst().flatMap { Int32($0) }
            case "--sandbox": sandbox = true
            case "--memory-limit": memoryLimit = rest.popFirst().flatMap { UInt64($0) }
            case "--readable": if let path = rest.popFirst() { readable.append(path) }
            default: module = word
            }
        }
        guard let fd, let module else {
            StandardStream.error.write("den worker: this mode is started by den itself for an isolated module (docs/ISOLATION.md); it needs --fd and a module file\n")
            return 64
        }
        // Before anything else: a module that allocates without end meets this limit, not the machine's.
        if let memoryLimit, den_sandbox_limit_memory(memoryLimit) != 0 {
            StandardStream.error.write("den worker: could not set its memory limit\n")
        }
        return WorkerModuleHost.run(fd: fd, modulePath: module) {
            guard sandbox else { return .init(layers: [], problem: nil) }
            var paths = readable.map { strdup($0) }
            defer { paths.forEach { free($0) } }
            var problem = [CChar](repeating: 0, count: 512)
            let engaged = paths.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { constant in
                    den_sandbox_apply(constant.baseAddress, constant.count, &problem, problem.count)
                }
            }
            var layers: [String] = []
            if engaged & UInt32(DEN_SANDBOX_NO_NEW_PRIVS) != 0 { layers.append(SandboxLayer.noNewPrivs) }
            if engaged & UInt32(DEN_SANDBOX_SECCOMP) != 0 { layers.append(SandboxLayer.seccomp) }
            if engaged & UInt32(DEN_SANDBOX_LANDLOCK) != 0 { layers.append(SandboxLayer.landlock) }
            let text = String(decoding: problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // Every layer the kernel offers must engage; landlock is missing only where the kernel lacks it.
            return .init(layers: layers, problem: text.isEmpty ? nil : "its sandbox could not be set up: \(text)")
        }
    }
}
