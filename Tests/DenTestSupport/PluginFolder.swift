import DenHost
import Foundation

/// Real plugin files for loader tests: the bundled modules and the deliberately broken fixtures
/// the package builds (Tests/Fixtures), copied into a private plugin folder per test.
package struct PluginFolder {
    package let temp: TemporaryDirectory
    package let plugins: URL

    package init() throws {
        temp = try TemporaryDirectory("den-loader")
        plugins = try temp.folder("plugins")
    }

    @discardableResult
    package func add(_ library: String, as name: String? = nil) throws -> URL {
        try temp.copy(try BuildProducts.require(BuildProducts.library(library)), into: plugins, as: name)
    }

    @discardableResult
    package func write(_ bytes: [UInt8], as name: String) throws -> URL {
        try temp.write(Data(bytes), to: name, in: plugins)
    }

    package func runtime(selecting modules: Set<String>? = nil) throws -> DenRuntime {
        let runtime = DenRuntime(configuration: HostConfiguration(
            pluginDirectories: [plugins], bundledDirectory: nil, selectedModules: modules,
            cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data")))
        runtime.loadPlugins()
        return runtime
    }
}

extension DenRuntime {
    package func record(_ file: String) -> PluginRecord? {
        registry.plugins.first { $0.file.lastPathComponent == file }
    }
}
