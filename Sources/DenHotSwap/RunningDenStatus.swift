import DenHost
import DenKit
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What a running den says about itself, written beside the plugin cache
/// (`<cache>/running/den-<pid>.json`) after every swap (`--watch`) and whenever the module that
/// takes most of its module time changes (den serve), so that `den plugins` — another process —
/// can show each module's generation, the old images that den retains and their rough memory
/// cost, and the busiest module.
/// A file whose process is gone is ignored and removed.
package struct RunningDenStatus: Codable, Sendable, Equatable {
    package var pid: Int32
    package var plugins: [PluginSummary]
    /// True when it runs with `--watch` (its swaps and retained images are news).
    package var watching: Bool?
    /// "jogs took 83% of den's module time over the last minute (41 s of 49 s)" while one module
    /// takes most of it (`ModuleTimeShare`).
    package var busiest: String?

    package init(pid: Int32, plugins: [PluginSummary], watching: Bool? = nil, busiest: String? = nil) {
        self.pid = pid
        self.plugins = plugins
        self.watching = watching
        self.busiest = busiest
    }

    package static func folder(cache: URL) -> URL { cache.appendingPathComponent("running", isDirectory: true) }

    /// Writes this process's status (atomically); best effort, a failure only loses the listing.
    package static func write(_ plugins: [PluginSummary], cache: URL, watching: Bool = true, busiest: String? = nil) {
        let folder = folder(cache: cache)
        let status = RunningDenStatus(pid: getpid(), plugins: plugins, watching: watching, busiest: busiest)
        guard let data = try? WireFormat.encode(status) else { return }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? data.write(to: folder.appendingPathComponent("den-\(getpid()).json"), options: .atomic)
    }

    /// The statuses of other dens still running (not this process).
    package static func others(cache: URL) -> [RunningDenStatus] {
        let folder = folder(cache: cache)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().compactMap { name -> RunningDenStatus? in
            let file = folder.appendingPathComponent(name)
            guard name.hasPrefix("den-"), name.hasSuffix(".json"),
                  let data = try? Data(contentsOf: file),
                  let status = try? WireFormat.decode(RunningDenStatus.self, from: data) else { return nil }
            guard status.pid != getpid() else { return nil }
            guard kill(status.pid, 0) == 0 || errno == EPERM else {
                try? FileManager.default.removeItem(at: file)
                return nil
            }
            return status
        }
    }
}
