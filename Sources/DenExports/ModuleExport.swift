import CDenABI
import DenKit

/// Where an isolated module's exports are called: its worker process (DenIsolation). A seam, so
/// that this target knows libffi and nothing of workers.
package protocol RemoteExports: AnyObject, Sendable {
    func invoke(_ export: ModuleExport, _ values: [ExportValue]) -> Result<ExportValue, ExportCallFailure>
}

/// One registered export: `<module>.<function>`, its signature, and everything needed to call it.
public struct ModuleExport: @unchecked Sendable {
    // The function and host pointers are the plugin's and the host's, valid for the process lifetime.
    package var moduleID: String
    package var function: String
    package var signature: ExportSignature
    package var summary: String
    package let pointer: den_export_fn
    package let interface: FFICallInterface
    /// The `den_host` of the exporting module: its first argument.
    package var host: UnsafePointer<den_host>?
    /// Set for an isolated module's export: the call goes to its worker.
    package var remote: (any RemoteExports)? = nil

    /// `main.convert`.
    public var name: String { "\(moduleID).\(function)" }

    /// The C function itself and the `den_host` it expects first, for an embedder (or the
    /// benchmark) that calls it directly with its real C type.
    public var address: UnsafeRawPointer { unsafeBitCast(pointer, to: UnsafeRawPointer.self) }
    public var moduleHost: UnsafeRawPointer? { host.map { UnsafeRawPointer($0) } }

    /// `main.convert(f64 amount, string from, string to) -> string`, for messages.
    package var declaration: String { "\(name)\(signature)" }

    package var summaryDocument: ExportSummary {
        ExportSummary(name: name, module: moduleID, signature: signature.description, summary: summary)
    }
}

/// An export as the registrar recorded it, before the registry knows the module is installed.
package struct PluginExport: @unchecked Sendable {
    package var function: String
    package var signature: ExportSignature
    package var summary: String
    package let pointer: den_export_fn
    package let interface: FFICallInterface
    /// Set for an isolated module's export: the call goes to its worker.
    package var remote: (any RemoteExports)? = nil

    package func bound(to moduleID: String, host: UnsafePointer<den_host>?) -> ModuleExport {
        ModuleExport(moduleID: moduleID, function: function, signature: signature, summary: summary,
                     pointer: pointer, interface: interface, host: host, remote: remote)
    }
}
