import DenExports
@testable import DenHost
import DenKit
import DenTestSupport
import Foundation

/// A host with the C fixture "exporter" (Tests/Fixtures/DenFixtureExports) loaded from its real
/// `.so`, plus any other build products named.
struct ExportFixture {
    let folder: PluginFolder
    let runtime: DenRuntime

    init(also libraries: [String] = [], timeout: Duration = .seconds(30)) throws {
        folder = try PluginFolder()
        try folder.add("DenFixtureExports")
        for library in libraries { try folder.add(library) }
        var configuration = HostConfiguration(pluginDirectories: [folder.plugins], bundledDirectory: nil,
                                              cacheDirectory: folder.temp.path("cache"), dataDirectory: folder.temp.path("data"))
        configuration.callPolicy.timeout = timeout
        configuration.auth.hashParameters = .testing
        runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins()
    }

    /// `den call`'s path: words checked against the signature, the call under the call limit.
    func call(_ name: String, _ words: String...) -> Result<ExportValue, ExportCallFailure> {
        runtime.callExport(name, words: words)
    }

    /// `exports.call` through the service hub, as a module named `caller` makes it.
    func service(_ request: String, caller: String = "exporter", session: UISessionID? = nil) -> (status: Int32, body: String) {
        let (status, body) = runtime.services.call("exports.call", request: Data(request.utf8),
                                                   caller: ServiceCaller(moduleID: caller, session: session))
        return (Int32(status.rawValue), String(decoding: body, as: UTF8.self))
    }
}

extension Result where Success == ExportValue, Failure == ExportCallFailure {
    var value: ExportValue? { try? get() }
    var failure: ExportCallFailure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
