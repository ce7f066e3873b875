import DenHost
import DenHotSwap
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Figure 7 (`--only swap`): hot swap of the release `libMainModule.so` (a Swift module whose
/// state goes through DenKit's `CodableState`).
/// - **latency**: from "the new file is stable" (`HotSwapper.swap` called) to "the new version
///   serves" (returned: staged, loaded, checked, every live instance snapshot → built → restored
///   and redrawn, routes switched), with `liveInstances` Main screens open in as many sessions;
///   baseline: a plain load + install of the same plugin into a fresh registry (what any swap
///   must at least do).
/// - **memory per retained version**: resident memory after `retainedRounds` more swaps, split
///   into anonymous memory (what a version costs beyond its image) and file-backed pages (the
///   image's own pages that were touched); the image's file size is given beside them.
/// - **first screen in a new image after N retained images** (N = 10, 100, 500): the first
///   `open("main")` in a newly swapped-in image (its first protocol casts and metadata lookups,
///   which slow down as images pile up, DESIGN §2) against the second `open` in the same image.
/// - **noticing a change**: from the rename of a new file into the plugin folder to the watcher's
///   report, with inotify and with polling (250 ms), debounce 50 ms.
struct SwapBench {
    struct Result {
        var swap = Samples()
        /// CPU time of the swapping thread per swap: less sensitive to other work on the machine.
        var swapCPU = Samples()
        var plainLoad = Samples()
        var imageBytes: Int64 = 0
        var anonPerVersion: Double = 0
        var filePerVersion: Double = 0
        /// The part of `anonPerVersion` inside the images' own mappings: their writable segment's
        /// pages once relocated or written (and the .bss pages touched) — the image itself.
        var imageAnonPerVersion: Double = 0
        /// What a version costs beyond its image: `anonPerVersion - imageAnonPerVersion`.
        var beyondImagePerVersion: Double { anonPerVersion - imageAnonPerVersion }
        /// One image's writable segment (file size and memory size of its RW PT_LOAD), for scale.
        var writableSegmentBytes: Int64 = 0
        var retainedRounds = 0
        /// N → (first open, second open), nanoseconds.
        var firstOpen: [(retained: Int, first: Double, second: Double)] = []
        var inotify = Samples()
        var polling = Samples()
        var failures: [String] = []
    }

    let plugin: URL
    let rounds: Int
    let liveInstances: Int
    /// N for "the first screen after N retained images" beyond the first (10).
    var retainedTargets = [100, 500]
    let workDirectory: URL

    func run() throws -> Result {
        var result = Result()
        let fileManager = FileManager.default
        let plugins = workDirectory.appendingPathComponent("plugins", isDirectory: true)
        try fileManager.createDirectory(at: plugins, withIntermediateDirectories: true)
        let file = plugins.appendingPathComponent("libMainModule.so")
        var serial = 0
        /// A rebuilt library: the same bytes under a new file identity, renamed into place.
        func install() throws {
            serial += 1
            let partial = plugins.appendingPathComponent(".libMainModule.so.\(serial).tmp")
            try fileManager.copyItem(at: plugin, to: partial)
            guard rename(partial.path, file.path) == 0 else { throw BenchError("rename failed") }
        }
        try install()
        result.imageBytes = Int64((try? fileManager.attributesOfItem(atPath: plugin.path)[.size] as? Int) ?? 0)

        let runtime = DenRuntime(configuration: HostConfiguration(
            pluginDirectories: [plugins], bundledDirectory: nil, selectedModules: nil,
            cacheDirectory: workDirectory.appendingPathComponent("cache"), dataDirectory: workDirectory.appendingPathComponent("data"),
            logLevel: .critical))
        runtime.loadPlugins()
        let swapper = HotSwapper(runtime: runtime)
        var retained = 0
        /// Swaps until `target` images are retained, then times the first and second screen in
        /// a few fresh images (no screen open, so a swap calls nothing in the new image but its entry point).
        func firstOpen(at target: Int) throws {
            while retained < target - 1 {
                try install()
                _ = swapper.swap(file)
                retained += 1
            }
            var first = Samples(), second = Samples()
            for _ in 0..<3 {
                try install()
                _ = swapper.swap(file)
                retained += 1
                var started = nowNanoseconds()
                _ = runtime.makeSession().open("main")
                first.add(nowNanoseconds() - started)
                started = nowNanoseconds()
                _ = runtime.makeSession().open("main")
                second.add(nowNanoseconds() - started)
            }
            result.firstOpen.append((retained, first.median, second.median))
        }
        try firstOpen(at: 10)
        var sessions: [NavigationSession] = []
        for index in 0..<liveInstances {
            let session = runtime.makeSession()
            _ = session.open("convert/\(index + 1)/usd/eur")
            sessions.append(session)
        }

        // Latency, with the plain load as the baseline, in turns.
        let loads = workDirectory.appendingPathComponent("loads", isDirectory: true)
        try fileManager.createDirectory(at: loads, withIntermediateDirectories: true)
        let loader = PluginLoader(cache: PluginCache(directory: workDirectory.appendingPathComponent("cache-plain")), hub: ServiceHub())
        for round in 0..<(rounds + 3) {
            try install()
            let cpuStarted = Self.threadCPU()
            let started = nowNanoseconds()
            let report = swapper.swap(file)
            let swapTime = nowNanoseconds() - started
            let swapCPU = Self.threadCPU() - cpuStarted
            if report.outcome != .swapped || report.statesKept != liveInstances {
                result.failures.append("swap \(round): \(report)")
            }
            let copy = loads.appendingPathComponent("plain\(round)-libMainModule.so")
            try fileManager.copyItem(at: plugin, to: copy)
            let loadStarted = nowNanoseconds()
            do {
                let loaded = try loader.load(copy)
                ModuleRegistry().install(loaded)
            } catch { result.failures.append("plain load: \(error)") }
            let loadTime = nowNanoseconds() - loadStarted
            if round >= 3 {
                result.swap.add(swapTime)
                result.swapCPU.add(swapCPU)
                result.plainLoad.add(loadTime)
            }
        }

        // Memory per retained version: instances stay live, so every swap does the full work.
        let retainedRounds = 40
        let before = Self.memory()
        let imageBefore = Self.imageAnonymousBytes(of: plugin)
        for _ in 0..<retainedRounds {
            try install()
            _ = swapper.swap(file)
        }
        let after = Self.memory()
        let imageAfter = Self.imageAnonymousBytes(of: plugin)
        result.retainedRounds = retainedRounds
        result.anonPerVersion = Double(after.anon - before.anon) / Double(retainedRounds)
        result.filePerVersion = Double(after.file - before.file) / Double(retainedRounds)
        result.imageAnonPerVersion = Double(imageAfter - imageBefore) / Double(retainedRounds)
        result.writableSegmentBytes = Self.writableSegmentMemorySize(of: plugin)

        // The first screen in a new image, as images pile up.
        sessions.removeAll()
        retained = runtime.registry.plugins.first { $0.id == "main" }?.retainedImages ?? retained
        for target in retainedTargets { try firstOpen(at: target) }

        // Noticing a change: inotify, then polling.
        for mode in [FileChangeWatcher.Mode.inotify, .polling] {
            let folder = workDirectory.appendingPathComponent("watch-\(mode.rawValue)", isDirectory: true)
            try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
            let arrived = Arrivals()
            let watcher = FileChangeWatcher(folders: [folder], options: .init(mode: mode, debounce: .milliseconds(50), pollInterval: .milliseconds(250)),
                                            accept: { $0.pathExtension == "so" }, onStable: { _ in arrived.note() })
            try watcher.start()
            Thread.sleep(forTimeInterval: 0.1)
            for index in 0..<12 {
                let partial = folder.appendingPathComponent(".x\(index).tmp")
                try fileManager.copyItem(at: plugin, to: partial)
                let started = nowNanoseconds()
                _ = rename(partial.path, folder.appendingPathComponent("libX.so").path)
                guard let at = arrived.wait(after: index) else { result.failures.append("watcher \(mode): no report"); break }
                let latency = Double(at) - Double(started)
                if mode == .inotify { result.inotify.add(latency) } else { result.polling.add(latency) }
                // Let the next change start at a random phase of the polling cycle.
                Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.3))
            }
            watcher.stop()
        }
        return result
    }

    /// This thread's CPU time, nanoseconds.
    static func threadCPU() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Anonymous pages inside the writable segment (data, GOT, relocated read-only data, .bss) of
    /// every loaded copy of `library` (copies are named after it): each copy's load address from
    /// /proc/self/maps (its mapping at file offset 0), the segment's place and size from the
    /// library's program headers, and each page's state from /proc/self/pagemap (present and not
    /// a file page: copied on write by a relocation or a store, or a touched .bss page). Page by
    /// page, so a neighbouring mapping the kernel merged with a .bss mapping is not counted. Bytes.
    static func imageAnonymousBytes(of library: URL) -> Int64 {
        let pageSize = UInt64(sysconf(Int32(_SC_PAGESIZE)))
        let segments = writableSegments(of: library)
        let stem = library.deletingPathExtension().lastPathComponent
        let descriptor = open("/proc/self/pagemap", O_RDONLY)
        let maps = readToEnd("/proc/self/maps")
        guard descriptor >= 0, !maps.isEmpty else { return 0 }
        defer { close(descriptor) }
        var total: Int64 = 0
        for line in maps.split(separator: "\n") {
            // "start-end perms offset dev inode path"
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[2] == "00000000", fields[5].split(separator: "/").last?.hasPrefix(stem) == true,
                  let base = fields[0].split(separator: "-").first.flatMap({ UInt64($0, radix: 16) }) else { continue }
            for segment in segments {
                let first = (base + segment.lowerBound) / pageSize
                let last = (base + segment.upperBound + pageSize - 1) / pageSize
                var entries = [UInt64](repeating: 0, count: Int(last - first))
                let wanted = entries.count * 8
                let got = entries.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(first * 8)) }
                guard got == wanted else { continue }
                // Bit 63: present; bit 61: a file page or shared anonymous memory.
                total += Int64(entries.filter { $0 >> 63 & 1 == 1 && $0 >> 61 & 1 == 0 }.count) * Int64(pageSize)
            }
        }
        return total
    }

    /// A /proc file read with read(2) to its end: they report a size of 0.
    static func readToEnd(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The library's writable PT_LOAD segments (data, GOT, .bss) as ranges of virtual addresses
    /// relative to its load address, from its program headers.
    static func writableSegments(of file: URL) -> [Range<UInt64>] {
        guard let data = FileManager.default.contents(atPath: file.path), data.count > 64 else { return [] }
        return data.withUnsafeBytes { raw -> [Range<UInt64>] in
            func read<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T { raw.loadUnaligned(fromByteOffset: offset, as: T.self) }
            let programHeaders = Int(read(0x20, UInt64.self))
            let entrySize = Int(read(0x36, UInt16.self)), count = Int(read(0x38, UInt16.self))
            var ranges: [Range<UInt64>] = []
            for index in 0..<count {
                let header = programHeaders + index * entrySize
                guard header + 56 <= raw.count else { break }
                let type = read(header, UInt32.self), flags = read(header + 4, UInt32.self)
                guard type == 1 /* PT_LOAD */, flags & 2 != 0 /* PF_W */ else { continue }
                let address = read(header + 16, UInt64.self), size = read(header + 40, UInt64.self)
                ranges.append(address..<(address + size))
            }
            return ranges
        }
    }

    /// The memory size of the library's writable segments: the most a loaded copy's relocations
    /// and data can dirty.
    static func writableSegmentMemorySize(of file: URL) -> Int64 {
        Int64(writableSegments(of: file).reduce(0) { $0 + $1.count })
    }

    /// RssAnon and RssFile from /proc/self/status, in bytes.
    static func memory() -> (anon: Int64, file: Int64) {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func value(_ key: String) -> Int64 {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return 0 }
            return (Int64(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        return (value("RssAnon:"), value("RssFile:"))
    }
}

/// When the watcher reported each change (monotonic nanoseconds).
final class Arrivals: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [UInt64] = []

    func note() { lock.withLock { times.append(nowNanoseconds()) } }

    func wait(after count: Int) -> UInt64? {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if let time = lock.withLock({ times.count > count ? times[count] : nil }) { return time }
            usleep(500)
        }
        return nil
    }
}
