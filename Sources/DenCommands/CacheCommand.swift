import ArgumentParser
import DenCommandLine
import DenHost
import DenSupport
import DenTerminalText
import Foundation

/// The plugin cache holds the copies den loads (see `PluginCache`); it prunes itself, and this
/// command shows or empties it without loading any plugin.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show the plugin cache (copies of loaded plugins) or empty it: den cache clean.",
        subcommands: [Show.self, Clean.self],
        defaultSubcommand: Show.self)

    struct Location: ParsableArguments {
        @Option(name: .customLong("cache-dir"), help: ArgumentHelp(
            "The plugin cache (default: $DEN_CACHE_DIR or ~/.cache/den/plugins).", valueName: "dir"))
        var cacheDirectory: String?

        func validate() throws {
            if cacheDirectory?.isEmpty == true { throw ValidationError("--cache-dir '' names no folder; give a path or leave the option out") }
        }

        var cache: PluginCache {
            PluginCache(directory: cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? PluginCache.defaultDirectory())
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print where the cache is and what it holds.")
        @OptionGroup var location: Location

        func run() throws {
            let cache = location.cache
            let copies = cache.entries()
            let bytes = copies.reduce(0) { $0 + $1.size }
            print("Plugin cache: \(cache.directory.path)")
            print("\(copies.count) \(copies.count == 1 ? "copy" : "copies"), \(ByteText.format(bytes)) "
                + "(kept within \(ByteText.format(cache.limits.maxBytes)); copies unused for \(Int(cache.limits.maxUnusedAge / 86_400)) days are removed)")
        }
    }

    struct Clean: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clean",
            abstract: "Remove every cached copy and the module registry cache; the next start copies its plugins again.",
            discussion: "Only files den made are removed. A running den keeps the plugins it has loaded.")
        @OptionGroup var location: Location

        func run() throws {
            let cache = location.cache
            let line = ProgressLine(width: TerminalWidth.current(descriptor: STDERR_FILENO))
            let report = cache.clean { done, total in line.update("Removing", done: done, total: total, unit: "copies") }
            line.finish()
            let registry = report.removedRegistryCache ? " and the module registry cache" : ""
            print("Removed \(report.removed) \(report.removed == 1 ? "copy" : "copies") (\(ByteText.format(report.bytes)))\(registry) from \(cache.directory.path).")
            guard report.failures.isEmpty else {
                for failure in report.failures { print("Could not remove \(failure)") }
                print("Check that you may write to \(cache.directory.path), then run den cache clean again.")
                throw ExitCode(ExitStatus.failure)
            }
        }
    }
}

enum ByteText {
    static func format(_ bytes: Int64) -> String {
        bytes < 1 << 20 ? "\(bytes / 1024) KB" : String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }
}
