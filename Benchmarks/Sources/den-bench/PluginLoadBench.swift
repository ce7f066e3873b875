import DenHost
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Figure 1: loading and registering one plugin, against a bare `dlopen` of the same image.
///
/// Every measured load must map a new image (`dlopen` of an already loaded path or inode returns
/// the old handle), so the benchmark copies the release `libAboutModule.so` to `3 × copies`
/// distinct files and spends each file once:
/// - **bare**: `dlopen(copy, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)` and nothing else;
/// - **warm**: `PluginLoader.load(copy)` + `ModuleRegistry.install` with the copy already staged
///   in the plugin cache (as on every `den` start after the first): header check, cache lookup,
///   `dlopen` of the cached copy, ABI and toolchain symbol checks, the entry call (the module
///   describes itself and adds its route), then registration (route table, conflict check,
///   compile) into a fresh registry;
/// - **cold**: the same with an empty cache, so the copy into the cache is included.
/// The three kinds take turns (all six orders in rotation) so images piling up in the process,
/// and the page cache, weigh on each kind alike.
struct PluginLoadBench {
    struct Result {
        var bare = Samples()
        var warmTotal = Samples()
        var warmLoad = Samples()
        var warmInstall = Samples()
        var coldTotal = Samples()
        /// `PluginCache.stage` alone for an already staged file (part of every warm load), timed
        /// after the main loop so it does not disturb it.
        var warmStage = Samples()
        var failures: [String] = []
    }

    let plugin: URL
    let copies: Int
    let workDirectory: URL

    func run() throws -> Result {
        let fileManager = FileManager.default
        let sources = workDirectory.appendingPathComponent("sources", isDirectory: true)
        let warmCache = PluginCache(directory: workDirectory.appendingPathComponent("cache-warm", isDirectory: true))
        let coldCache = PluginCache(directory: workDirectory.appendingPathComponent("cache-cold", isDirectory: true))
        try fileManager.createDirectory(at: sources, withIntermediateDirectories: true)

        func makeCopies(_ kind: String, _ count: Int) throws -> [URL] {
            try (0..<count).map { index in
                let file = sources.appendingPathComponent("\(kind)\(index)-libAboutModule.so")
                try fileManager.copyItem(at: plugin, to: file)
                return file
            }
        }
        let warmUps = 3
        let bareFiles = try makeCopies("bare", copies + warmUps)
        let warmFiles = try makeCopies("warm", copies + warmUps)
        let coldFiles = try makeCopies("cold", copies)
        // Warm: stage every copy now, as an earlier `den` run would have.
        for file in warmFiles { _ = try warmCache.stage(file) }

        let hub = ServiceHub()
        let warmLoader = PluginLoader(cache: warmCache, hub: hub)
        let coldLoader = PluginLoader(cache: coldCache, hub: hub)
        var result = Result()

        func bare(_ file: URL) -> UInt64 {
            let start = nowNanoseconds()
            let handle = dlopen(file.path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)
            let elapsed = nowNanoseconds() - start
            if handle == nil { result.failures.append("dlopen \(file.lastPathComponent): \(dlerror().map { String(cString: $0) } ?? "?")") }
            return elapsed
        }

        func den(_ loader: PluginLoader, _ file: URL) -> (load: UInt64, install: UInt64) {
            let registry = ModuleRegistry()
            let start = nowNanoseconds()
            let plugin: LoadedPlugin
            do {
                plugin = try loader.load(file)
            } catch {
                result.failures.append("\(error)")
                return (0, 0)
            }
            let loaded = nowNanoseconds()
            let record = registry.install(plugin)
            let installed = nowNanoseconds()
            if !record.isActive || record.id != "about" {
                result.failures.append("\(file.lastPathComponent): not installed: \(record.error.map { "\($0)" } ?? "?")")
            }
            return (loaded - start, installed - loaded)
        }

        // Warm-up: the first image loaded pays once for what later images share (DESIGN §2), and
        // the loader's own code paths get faulted in.
        for index in 0..<warmUps {
            _ = bare(bareFiles[copies + index])
            _ = den(warmLoader, warmFiles[copies + index])
        }

        let orders = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]]
        for index in 0..<copies {
            for kind in orders[index % orders.count] {
                switch kind {
                case 0:
                    result.bare.add(bare(bareFiles[index]))
                case 1:
                    let (load, install) = den(warmLoader, warmFiles[index])
                    result.warmLoad.add(load)
                    result.warmInstall.add(install)
                    result.warmTotal.add(load + install)
                default:
                    let (load, install) = den(coldLoader, coldFiles[index])
                    result.coldTotal.add(load + install)
                }
            }
        }
        for file in warmFiles.prefix(copies) {
            let start = nowNanoseconds()
            _ = try warmCache.stage(file)
            result.warmStage.add(nowNanoseconds() - start)
        }
        return result
    }
}
