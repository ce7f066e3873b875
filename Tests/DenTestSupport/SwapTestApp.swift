import DenHost
import DenHotSwap
import DenIsolation
import DenKit
import Foundation

/// A runtime whose plugin folder holds the swap fixture (Tests/HotSwapFixture), plus helpers to
/// install new versions and read what the sessions show.
package final class SwapTestApp: @unchecked Sendable {
    package static let fixture = try! SwapFixture()
    package let temp: TemporaryDirectory
    package let plugins: URL
    package let runtime: DenRuntime
    package let swapper: HotSwapper

    /// `others`: more plugin files to install first, by name (e.g. a second module to clash with).
    package init(_ flags: [String] = [], others: [String: [String]] = [:], policy: HotSwapPolicy = HotSwapPolicy(),
         extraLibraries: [String] = [], isolated: Bool = false) throws {
        temp = try TemporaryDirectory("den-hotswap")
        plugins = try temp.folder("plugins")
        try Self.fixture.install(flags, into: plugins)
        for (name, otherFlags) in others { try Self.fixture.install(otherFlags, into: plugins, as: name) }
        for library in extraLibraries {
            try temp.copy(try BuildProducts.require(BuildProducts.library(library)), into: plugins)
        }
        var configuration = HostConfiguration(
            pluginDirectories: [plugins], bundledDirectory: nil, selectedModules: nil,
            cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data"))
        if isolated {
            // The fixture has no manifest: its file name isolates it (docs/ISOLATION.md).
            configuration.hosting.isolated = ["libSwapModule.so"]
            configuration.useWorkerIsolation()
            configuration.workerExecutable = BuildProducts.den.path
        }
        runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins()
        swapper = HotSwapper(runtime: runtime, policy: policy)
    }

    package var file: URL { plugins.appendingPathComponent("libSwapModule.so") }

    /// Installs a new version (atomically, like a build) and swaps it in.
    @discardableResult
    package func swap(to flags: [String]) throws -> HotSwapReport {
        try Self.fixture.install(flags, into: plugins)
        return swapper.swap(file)
    }

    package var record: PluginRecord? {
        runtime.registry.plugins.last { $0.id == "swap" && $0.isActive }
    }
}

extension SessionView {
    /// Every text and heading of the screen, one per line.
    package var text: String {
        screen.elements.compactMap { element -> String? in
            switch element {
            case .text(let text, _), .heading(let text): text
            case .banner(let banner): "banner: \(banner.text)"
            default: nil
            }
        }.joined(separator: "\n")
    }

    /// The number after "count " on the swap fixture's screen.
    package var count: Int? {
        text.split(separator: "\n").first { $0.hasPrefix("count ") }.flatMap { Int($0.dropFirst(6)) }
    }
}

extension NavigationSession {
    @discardableResult
    package func add() -> SessionView { send(action: "add", fields: [:]) }
}
