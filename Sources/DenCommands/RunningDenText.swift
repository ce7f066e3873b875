import DenHost
import DenHotSwap
import DenKit
import DenSupport
import Foundation

/// `den plugins` on a den running with `--watch`: each module's generation, the old images it
/// retains (never unloaded) and roughly their memory, and a refused swap's error.
enum RunningDenText {
    static func lines(_ status: RunningDenStatus) -> String {
        let busiest = status.busiest.map { "  busiest: " + ModuleText.singleLine($0) }
        guard status.watching ?? true else {
            return (["", "A running den (pid \(status.pid)):"] + (busiest.map { [$0] } ?? [])).joined(separator: "\n")
        }
        let active = status.plugins.filter { $0.status == .active }
        let images = active.reduce(0) { $0 + ($1.retainedImages ?? 0) }
        let bytes = active.reduce(Int64(0)) { $0 + ($1.retainedBytes ?? 0) }
        var lines = ["", "A den running with --watch (pid \(status.pid)) retains \(images) old image(s), about \(format(bytes)):"]
        for plugin in active {
            let name = ModuleText.singleLine("\(plugin.id ?? "?") \(plugin.version ?? "")")
            // No load time: known from its manifest, loaded when one of its routes is first opened.
            var line = "  \(name): generation \(plugin.generation ?? 1), " + (plugin.loadedAt.map { "loaded \($0)" } ?? "not loaded yet")
            if let retained = plugin.retainedImages, retained > 0 {
                line += ", \(retained) old image(s) retained (~\(format(plugin.retainedBytes ?? 0)))"
            }
            lines.append(line)
            if let error = plugin.swapError { lines.append("    last swap refused: \(ModuleText.singleLine(error))") }
        }
        if let busiest { lines.append(busiest) }
        return lines.joined(separator: "\n")
    }

    static func format(_ bytes: Int64) -> String {
        bytes >= 1 << 20 ? String(format: "%.1f MB", Double(bytes) / 1_048_576) : "\(bytes / 1024) KB"
    }
}

/// `den plugins --json` when dens with `--watch` run: plugins.list's form plus `running`.
struct PluginsWithRunning: Encodable {
    var plugins: [PluginSummary]
    var running: [RunningDenStatus]
}
