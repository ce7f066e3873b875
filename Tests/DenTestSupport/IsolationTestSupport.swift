import DenHost
import DenIsolation
import DenKit

/// A runtime over `folder`'s plugins with the modules `isolate` names run in workers, the built
/// `den` being the worker: what the isolation specs start from.
package func isolatingRuntime(_ folder: PluginFolder, log: CapturedLog, isolate: Set<String>, sandbox: Bool = true,
                      timeout: Duration = .seconds(30)) -> DenRuntime {
    var configuration = HostConfiguration(pluginDirectories: [folder.plugins], bundledDirectory: nil,
                                          cacheDirectory: folder.temp.path("cache"), dataDirectory: folder.temp.path("data"))
    configuration.callPolicy = ModuleCallPolicy(timeout: timeout, slowNotice: timeout)
    configuration.hosting.isolated = isolate
    configuration.useWorkerIsolation()
    configuration.hosting.sandbox = sandbox
    configuration.workerExecutable = BuildProducts.den.path
    let runtime = DenRuntime(configuration: configuration, logger: log.logger)
    runtime.loadPlugins()
    return runtime
}

extension Screen {
    /// The text lines, in order.
    package var texts: [String] { elements.compactMap { if case .text(let text, _) = $0 { text } else { nil } } }
    /// The banners' texts, in order.
    package var bannerTexts: [String] { elements.compactMap { if case .banner(let banner) = $0 { banner.text } else { nil } } }
}

extension DenRuntime {
    /// The runtime's worker isolation, as DenIsolation made it (nil: it isolates nothing).
    package var workers: IsolationSettings? { isolation as? IsolationSettings }
}
