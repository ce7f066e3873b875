import DenHost
import DenIsolation
import Foundation

/// Isolated modules (docs/ISOLATION.md) against the same module in-process, in one run: the C
/// fault module (Tests/Fixtures/DenFixtureFaults) counts on a small screen ("faults", ≈ 0.3 KiB)
/// and on a 4 KiB one ("faults/big"). Also: a fresh worker's first screen, a crash (SIGSEGV in
/// `handle`) to the restored screen, and the worker's memory beyond the module's image.
struct IsolationBench {
    var plugin: URL
    var den: URL
    var events: Int
    var crashes: Int
    var starts: Int
    var workDirectory: URL

    struct Result {
        var inProcess: [String: Samples] = [:]
        var isolated: [String: Samples] = [:]
        var firstScreenInProcess = Samples()
        var firstScreenIsolated = Samples()
        var crashToRestored = Samples()
        /// The breakdown (docs/ISOLATION.md, "Figures"): CPU time per event, in nanoseconds, of
        /// den's process (all its threads) around each step, and of the worker process.
        var hostCPUInProcess = Samples()
        var hostCPUIsolated = Samples()
        var workerCPUPerEvent: Double = .nan
        var workerRSS: Double = .nan
        var workerPrivate: Double = .nan
        var moduleImage: Double = .nan
        /// Bytes the worker read and wrote per "count" event, per screen (its /proc/PID/io):
        /// the socketpair baseline sends the same.
        var bytesPerEvent: [String: (request: Int, reply: Int)] = [:]
        var failures: [String] = []
    }

    func runtime(isolated: Bool, name: String) throws -> DenRuntime {
        let folder = workDirectory.appendingPathComponent(name)
        let plugins = folder.appendingPathComponent("plugins")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: plugin, to: plugins.appendingPathComponent(plugin.lastPathComponent))
        var configuration = HostConfiguration(pluginDirectories: [plugins], bundledDirectory: nil,
                                              cacheDirectory: workDirectory.appendingPathComponent("cache"),
                                              dataDirectory: folder.appendingPathComponent("data"))
        if isolated { configuration.hosting.isolated = ["faults"] }
        configuration.useWorkerIsolation()
        configuration.hosting.crashesToQuarantine = Int.max // the crash figure crashes on purpose
        configuration.workerExecutable = den.path
        let runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins()
        return runtime
    }

    func run() throws -> Result {
        var result = Result()
        let inProcess = try runtime(isolated: false, name: "in-process")
        let isolated = try runtime(isolated: true, name: "isolated")
        // Round trips: the same "count" event, in rotation between the two hosts and two screens.
        var sessions: [(String, Bool, NavigationSession)] = []
        for route in ["faults", "faults/big"] {
            for (isIsolated, runtime) in [(false, inProcess), (true, isolated)] {
                let session = runtime.makeSession()
                if !session.open(route).errors.isEmpty { result.failures.append("\(route) did not open (isolated: \(isIsolated))") }
                sessions.append((route, isIsolated, session))
            }
        }
        let workerPid = isolated.worker(ofModule: "faults")?.pid
        // The bytes of one event each way, frames whole, as den's side of the worker's socket
        // counts them (per screen): send and recv show in no /proc counter.
        for (route, isIsolated, session) in sessions where isIsolated {
            _ = session.send(action: "count", fields: [:]) // warm
            let before = isolated.workerTraffic(ofModule: "faults")
            for _ in 0..<20 { _ = session.send(action: "count", fields: [:]) }
            let after = isolated.workerTraffic(ofModule: "faults")
            guard let before, let after else { result.failures.append("no worker traffic for \(route)"); continue }
            let (request, reply) = ((after.sent - before.sent) / 20, (after.received - before.received) / 20)
            if request > 0, reply > 0 { result.bytesPerEvent[route] = (request, reply) } else { result.failures.append("no bytes counted for \(route)") }
        }
        var workerCPUStart = 0.0
        for round in 0..<(events + 50) {
            if round == 50, let workerPid { workerCPUStart = Self.cpuNanoseconds(pid: workerPid) }
            for index in sessions.indices {
                let (route, isIsolated, session) = sessions[(index + round) % sessions.count]
                let cpuStart = Self.processCPUNanoseconds()
                let start = nowNanoseconds()
                let view = session.send(action: "count", fields: [:])
                let elapsed = nowNanoseconds() - start
                let cpu = Self.processCPUNanoseconds() - cpuStart
                if !view.errors.isEmpty { result.failures.append("count on \(route): \(view.errors)") }
                guard round >= 50 else { continue }
                if isIsolated { result.isolated[route, default: Samples()].add(elapsed) } else { result.inProcess[route, default: Samples()].add(elapsed) }
                if isIsolated { result.hostCPUIsolated.add(cpu) } else { result.hostCPUInProcess.add(cpu) }
            }
        }
        if let workerPid, events > 0 {
            result.workerCPUPerEvent = (Self.cpuNanoseconds(pid: workerPid) - workerCPUStart) / Double(events * 2)
        }
        // Memory: the worker's resident set, its private part, and the module image's share (its
        // copy in the plugin cache keeps the file's name).
        if let pid = isolated.worker(ofModule: "faults")?.pid {
            (result.workerRSS, result.workerPrivate, result.moduleImage) = Self.memory(pid: pid, image: "libDenFixtureFaults")
        }
        // A worker's first screen: a fresh host loads the module (in a worker: started, entry
        // point run, registration replayed) and opens its route, against the same in-process.
        for round in 0..<starts {
            for isIsolated in round % 2 == 0 ? [false, true] : [true, false] {
                let start = nowNanoseconds()
                let runtime = try self.runtime(isolated: isIsolated, name: "start-\(round)-\(isIsolated)")
                let view = runtime.makeSession().open("faults")
                let elapsed = nowNanoseconds() - start
                if !view.errors.isEmpty { result.failures.append("first screen: \(view.errors)") }
                if isIsolated { result.firstScreenIsolated.add(elapsed) } else { result.firstScreenInProcess.add(elapsed) }
            }
        }
        // Crash to restored screen: SIGSEGV in handle; the call returns once the host has noticed,
        // started a worker, built the screen again and restored its state.
        let session = isolated.makeSession()
        _ = session.open("faults")
        for round in 0..<crashes {
            _ = session.send(action: "count", fields: [:])
            let start = nowNanoseconds()
            let view = session.send(action: "segv", fields: [:])
            let elapsed = nowNanoseconds() - start
            guard view.errors.first?.contains("restored this screen") == true else {
                result.failures.append("crash \(round): \(view.errors)")
                continue
            }
            result.crashToRestored.add(elapsed)
        }
        // That the state survives is the tests' business (IsolationSpec); here the next event must work.
        if !session.send(action: "count", fields: [:]).errors.isEmpty { result.failures.append("no event after \(crashes) crashes") }
        return result
    }

    /// CPU time of this whole process (every thread), in nanoseconds.
    static func processCPUNanoseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) * 1e9 + Double(now.tv_nsec)
    }

    /// CPU time of another process's main thread (the worker serves on it), in nanoseconds:
    /// the first field of /proc/PID/schedstat.
    static func cpuNanoseconds(pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/schedstat", encoding: .utf8),
              let first = text.split(separator: " ").first, let value = Double(first) else { return .nan }
        return value
    }

    /// Resident and private bytes of a process, and the resident bytes of the mappings of `image`.
    static func memory(pid: Int32, image: String) -> (Double, Double, Double) {
        // Read to the end: a /proc file says its size is 0, and a read by size stops early.
        guard let data = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps")?.readDataToEndOfFile() else { return (.nan, .nan, .nan) }
        let smaps = String(decoding: data, as: UTF8.self)
        var rss = 0.0, privateBytes = 0.0, imageBytes = 0.0, inImage = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
                inImage = line.contains(image)
                continue
            }
            guard fields.count >= 2, let kilobytes = Double(fields[1]) else { continue }
            switch fields[0] {
            case "Rss:":
                rss += kilobytes * 1024
                if inImage { imageBytes += kilobytes * 1024 }
            case "Private_Clean:", "Private_Dirty:": privateBytes += kilobytes * 1024
            default: break
            }
        }
        return (rss, privateBytes, imageBytes)
    }
}
