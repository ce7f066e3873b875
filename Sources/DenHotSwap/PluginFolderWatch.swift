import DenHost
import DenSupport
import FoundationEssentials
import DenModuleFiles

/// `--watch`: watches the runtime's plugin folders and hot-swaps each plugin file that changes
/// once it is stable. Every outcome — swapped, installed, refused — goes to `onReport`, on the
/// watcher's thread; front-ends redraw (terminal) or tell their pages (browser) from there.
package final class PluginFolderWatch: Sendable {
    package let swapper: HotSwapper
    private let watcher: FileChangeWatcher

    package init(runtime: DenRuntime, options: FileChangeWatcher.Options = FileChangeWatcher.Options(),
                policy: HotSwapPolicy = HotSwapPolicy(), onReport: @escaping @Sendable (HotSwapReport) -> Void) {
        let swapper = HotSwapper(runtime: runtime, policy: policy, onRetryLanded: onReport)
        self.swapper = swapper
        let bundled = runtime.configuration.bundledDirectory?.standardizedFileURL.path
        watcher = FileChangeWatcher(folders: runtime.searchedFolders, options: options, accept: { file in
            Self.pluginFile(changedBy: file, bundledFolder: bundled) != nil
        }, onStable: { file in
            // A signature whose module file is gone (removed with it) is nothing to swap.
            guard let plugin = Self.pluginFile(changedBy: file, bundledFolder: bundled),
                  plugin == file || FileManager.default.fileExists(atPath: plugin.path) else { return }
            onReport(swapper.swap(plugin))
        })
    }

    /// The plugin file a change to `file` concerns: the file itself, or for its signature
    /// (`<file>.minisig`) the module file beside it, which is judged again; nil for any other file.
    package static func pluginFile(changedBy file: URL, bundledFolder: String?) -> URL? {
        let suffix = ".minisig"
        guard file.lastPathComponent.hasSuffix(suffix) else { return isPluginFile(file, bundledFolder: bundledFolder) ? file : nil }
        let plugin = URL(fileURLWithPath: String(file.path.dropLast(suffix.count)), isDirectory: false)
        return isPluginFile(plugin, bundledFolder: bundledFolder) ? plugin : nil
    }

    /// The same files discovery loads: in the bundled folder only `lib<Name>Module.so` (it also
    /// holds dependencies and fixtures), elsewhere every `*.so`; never a hidden partial copy.
    package static func isPluginFile(_ file: URL, bundledFolder: String?) -> Bool {
        let name = file.lastPathComponent
        guard name.hasSuffix(".so"), !name.hasPrefix(".") else { return false }
        if file.deletingLastPathComponent().standardizedFileURL.path == bundledFolder {
            return PluginDiscovery.moduleName(fromFile: name) != nil
        }
        return true
    }

    /// inotify or polling, once started.
    package var mode: FileChangeWatcher.Mode { watcher.activeMode }

    /// - Throws: `HostThread.StartFailure` when the watcher's thread could not be started.
    package func start() throws(HostThread.StartFailure) {
        try watcher.start()
        swapper.publishStatus()
    }

    package func stop() {
        watcher.stop()
        swapper.withdrawStatus()
    }
}
