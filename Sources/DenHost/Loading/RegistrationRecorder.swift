import CDenABI
import Foundation

/// A route a plugin added: its pattern and the C builder to call for it.
public struct PluginRoute: @unchecked Sendable {
    // The builder context is the plugin's, valid for the process lifetime (den_module.h).
    public var pattern: String
    var build: den_builder_fn
    var context: UnsafeMutableRawPointer?
}

/// Records what a plugin's entry point registers through the `den_registrar` the host hands it.
/// Lives only during `den_module_entry`, on the loading thread.
final class RegistrationRecorder {
    var id: String?
    var version: String?
    var summary: String?
    var routes: [PluginRoute] = []
    var problems: [String] = []

    /// Runs `body` with a registrar whose callbacks fill this recorder.
    func withRegistrar<R>(_ body: (UnsafePointer<den_registrar>) -> R) -> R {
        var registrar = den_registrar(
            ctx: Unmanaged.passUnretained(self).toOpaque(),
            describe: { ctx, id, version, summary in
                RegistrationRecorder.from(ctx).describe(id: id, version: version, summary: summary)
            },
            add_route: { ctx, pattern, build, builderContext in
                RegistrationRecorder.from(ctx).addRoute(pattern: pattern, build: build, context: builderContext)
            })
        return withUnsafePointer(to: &registrar) { body($0) }
    }

    private static func from(_ ctx: UnsafeMutableRawPointer?) -> RegistrationRecorder {
        Unmanaged<RegistrationRecorder>.fromOpaque(ctx!).takeUnretainedValue()
    }

    private func describe(id: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?, summary: UnsafePointer<CChar>?) -> Int32 {
        guard self.id == nil else {
            problems.append("describe was called twice")
            return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
        }
        let id = id.map { String(cString: $0) } ?? ""
        let version = version.map { String(cString: $0) } ?? ""
        guard ModuleIdentity.isValidID(id) else {
            problems.append("module id '\(id)' is not valid (use 1–64 characters of a-z, 0-9, '-' and '_', starting with a letter or digit)")
            return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
        }
        guard ModuleIdentity.isValidVersion(version) else {
            problems.append("version '\(version)' of module '\(id)' is not a semantic version like 1.2.0")
            return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
        }
        self.id = id
        self.version = version
        self.summary = summary.map { String(cString: $0) } ?? ""
        return Int32(DEN_OK.rawValue)
    }

    private func addRoute(pattern: UnsafePointer<CChar>?, build: den_builder_fn?, context: UnsafeMutableRawPointer?) -> Int32 {
        guard id != nil else {
            problems.append("add_route was called before describe")
            return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
        }
        guard let pattern, let build else {
            problems.append("add_route was called without a pattern or a builder")
            return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
        }
        let text = String(cString: pattern)
        do {
            _ = try RoutePattern(text)
        } catch {
            problems.append("route pattern '\(text)': \(error)")
            return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
        }
        routes.append(PluginRoute(pattern: text, build: build, context: context))
        return Int32(DEN_OK.rawValue)
    }
}
