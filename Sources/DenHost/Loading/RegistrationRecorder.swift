import DenExports
import DenModuleFiles
import DenRouting
import CDenABI
import DenKit
import DenSupport
import FoundationEssentials
import Logging

/// A route a plugin added: its pattern, its flags and the C builder to call for it.
package struct PluginRoute: @unchecked Sendable {
    // The builder context is the plugin's, valid for the process lifetime (den_module.h).
    package var pattern: String
    /// `DEN_ROUTE_REQUIRES_LOGIN`: the host opens the login route instead while nobody is logged in.
    package var requiresLogin = false
    package var build: den_builder_fn
    package var context: UnsafeMutableRawPointer?
    /// Set while the route comes from a manifest and its file is not loaded yet (`LazyModule`).
    var lazy: LazyModule? = nil
}

/// Records what a plugin's entry point registers through the `den_registrar` the host hands it.
///
/// A module may keep the registrar pointer, or a copy of the struct, and call it after
/// `den_module_entry` returned. So the struct and this recorder live for the process lifetime
/// (like the plugin image itself, which is never unloaded) and, once `close()`d, every call is
/// refused with `DEN_ERR_INVALID_ARGUMENT` and logged with the module's id: nothing freed is ever
/// touched. Thread-safe, because a late call may come from any thread.
package final class RegistrationRecorder: @unchecked Sendable {
    private let lock = Lock()
    private let file: String
    private let logger: Logger?
    private var isOpen = true
    private var _id: String?
    private var _version: String?
    private var _summary: String?
    private var _routes: [PluginRoute] = []
    private var _problems: [String] = []
    private var _exports: [PluginExport] = []
    /// Handed to the plugin; deliberately never freed (see the type's comment).
    package let registrar: UnsafePointer<den_registrar>

    package var id: String? { lock.withLock { _id } }
    package var version: String? { lock.withLock { _version } }
    package var summary: String? { lock.withLock { _summary } }
    package var routes: [PluginRoute] { lock.withLock { _routes } }
    package var problems: [String] { lock.withLock { _problems } }
    package var exports: [PluginExport] { lock.withLock { _exports } }

    package init(file: String = "(in-process module)", logger: Logger? = nil) {
        self.file = file
        self.logger = logger
        let registrar = UnsafeMutablePointer<den_registrar>.allocate(capacity: 1)
        self.registrar = UnsafePointer(registrar)
        // Retained for good: a late call through a kept pointer must still find a live object.
        registrar.initialize(to: den_registrar(
            ctx: Unmanaged.passRetained(self).toOpaque(),
            describe: { ctx, id, version, summary in
                guard let ctx else { return RegistrationRecorder.refuseNullContext("describe") }
                return RegistrationRecorder.from(ctx).describe(id: id, version: version, summary: summary)
            },
            add_route: { ctx, pattern, build, builderContext in
                guard let ctx else { return RegistrationRecorder.refuseNullContext("add_route") }
                return RegistrationRecorder.from(ctx).addRoute(pattern: pattern, flags: 0, build: build, context: builderContext)
            },
            add_route_with_flags: { ctx, pattern, flags, build, builderContext in
                guard let ctx else { return RegistrationRecorder.refuseNullContext("add_route_with_flags") }
                return RegistrationRecorder.from(ctx).addRoute(pattern: pattern, flags: flags, build: build, context: builderContext)
            },
            add_export: { ctx, name, signature, summary, function in
                guard let ctx else { return RegistrationRecorder.refuseNullContext("add_export") }
                return RegistrationRecorder.from(ctx).addExport(name: name, signature: signature, summary: summary, function: function)
            }))
    }

    /// The recorder whose entry point runs on this thread: a call with a NULL `ctx` cannot say
    /// whose it is, but it comes during that entry point.
    @TaskLocal private static var registering: RegistrationRecorder?

    /// Runs `body` (the entry point) with the registrar, then closes registration.
    package func withRegistrar<R>(_ body: (UnsafePointer<den_registrar>) -> R) -> R {
        defer { close() }
        return Self.$registering.withValue(self) { body(registrar) }
    }

    /// Refuses a registrar call whose `ctx` is NULL, recording it against the entry point
    /// running on this thread, so the plugin's failure names the real mistake.
    private static func refuseNullContext(_ function: String) -> Int32 {
        if let recorder = registering {
            recorder.lock.withLock {
                recorder._problems.append("\(function) was called with a NULL ctx: pass registrar->ctx as its first argument")
            }
        }
        return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
    }

    /// Ends registration: called as soon as `den_module_entry` returns.
    package func close() {
        lock.withLock { isOpen = false }
    }

    private static func from(_ ctx: UnsafeMutableRawPointer) -> RegistrationRecorder {
        Unmanaged<RegistrationRecorder>.fromOpaque(ctx).takeUnretainedValue()
    }

    /// Refuses a call made after `den_module_entry` returned, saying so in the log.
    private func refuseLate(_ function: String) -> Int32 {
        let module = _id.map { "module '\($0)'" } ?? "the plugin"
        logger?.error("\(module) (\(ModuleText.singleLine(file))) called \(function) after den_module_entry returned; the call was refused: register routes only during den_module_entry",
                      metadata: ["module": "\(_id ?? file)"])
        return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
    }

    private func describe(id: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?, summary: UnsafePointer<CChar>?) -> Int32 {
        lock.withLock {
            guard isOpen else { return refuseLate("describe") }
            guard _id == nil else {
                _problems.append("describe was called twice")
                return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
            }
            let id = id.map { String(cString: $0) } ?? ""
            let version = version.map { String(cString: $0) } ?? ""
            guard ModuleIdentity.isValidID(id) else {
                _problems.append("module id '\(ModuleText.singleLine(id, limit: 80))' is not valid (\(ModuleIdentity.idRule))")
                return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
            }
            guard ModuleIdentity.isValidVersion(version) else {
                _problems.append("version '\(ModuleText.singleLine(version, limit: 80))' of module '\(id)' is not valid (\(ModuleIdentity.versionRule))")
                return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
            }
            _id = id
            _version = version
            _summary = summary.map { String(cString: $0) } ?? ""
            return Int32(DEN_OK.rawValue)
        }
    }

    /// The flag bits this host knows (den_module.h, revision 1).
    package static let knownRouteFlags = UInt32(DEN_ROUTE_REQUIRES_LOGIN.rawValue)
    /// In the problem an unknown flag bit causes; `PluginLoadError` keys its fix on it.
    package static let unknownFlagsPhrase = "are unknown to this host"

    private func addRoute(pattern: UnsafePointer<CChar>?, flags: UInt32, build: den_builder_fn?,
                          context: UnsafeMutableRawPointer?) -> Int32 {
        lock.withLock {
            guard isOpen else { return refuseLate(flags == 0 ? "add_route" : "add_route_with_flags") }
            guard _id != nil else {
                _problems.append("add_route was called before describe")
                return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
            }
            guard let pattern, let build else {
                _problems.append("add_route was called without a pattern or a builder")
                return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
            }
            // Repairing would register a route other than the one the module meant.
            guard let text = String(validatingCString: pattern) else {
                _problems.append("route pattern '\(ModuleText.singleLine(String(cString: pattern), limit: 200))' is not valid UTF-8; "
                                 + "route patterns are UTF-8 text (den_module.h)")
                return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
            }
            do {
                _ = try RoutePattern(text)
            } catch {
                _problems.append("route pattern '\(ModuleText.singleLine(text, limit: 200))': \(error)")
                return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
            }
            let unknown = flags & ~Self.knownRouteFlags
            guard unknown == 0 else {
                _problems.append("route pattern '\(ModuleText.singleLine(text, limit: 200))': flag bits 0x\(String(unknown, radix: 16)) \(Self.unknownFlagsPhrase) (ABI revision \(DEN_ABI_REVISION)); build the plugin against this host's den_module.h or drop those flags")
                return Int32(DEN_ERR_UNSUPPORTED.rawValue)
            }
            _routes.append(PluginRoute(pattern: text, requiresLogin: flags & Self.knownRouteFlags != 0,
                                       build: build, context: context))
            return Int32(DEN_OK.rawValue)
        }
    }

    /// `add_export` (revision 2): checked and prepared by `ExportDeclaration`.
    private func addExport(name: UnsafePointer<CChar>?, signature: UnsafePointer<CChar>?, summary: UnsafePointer<CChar>?,
                           function: den_export_fn?) -> Int32 {
        lock.withLock {
            guard isOpen else { return refuseLate("add_export") }
            guard _id != nil else {
                _problems.append("add_export was called before describe")
                return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
            }
            switch ExportDeclaration.check(name: name, signature: signature, summary: summary, function: function, existing: _exports) {
            case .success(let export):
                _exports.append(export)
                return Int32(DEN_OK.rawValue)
            case .failure(let refusal):
                _problems.append(refusal.problem)
                return Int32(refusal.status.rawValue)
            }
        }
    }
}
