import CDenABI
import DenKit
import FoundationEssentials

/// Records the settings one plugin declares with `settings.declare` (docs/ABI.md) while its
/// `den_module_entry` runs. The declaration is a service call, not a registrar function, so the
/// ABI stays version 1 with an unchanged header: a plugin built before settings existed simply
/// declares none, and a new plugin on an older host gets an error it may ignore.
///
/// Rules: one declaration, during `den_module_entry` only; a malformed one is refused and
/// rejects the plugin (like a refused registrar call), naming the problem. Thread-safe.
package final class SettingsRecorder: @unchecked Sendable {
    private let lock = Lock()
    private var isOpen = true
    private var _settings: [SettingDefinition] = []
    private var _problem: String?
    private var declared = false

    package var settings: [SettingDefinition] { lock.withLock { _settings } }
    /// Why the declaration was refused, if it was.
    package var problem: String? { lock.withLock { _problem } }

    /// Registration is over: later declarations are refused.
    package func close() {
        lock.withLock { isOpen = false }
    }

    /// Answers a `settings.declare` call.
    package func declare(_ request: Data) -> (status: den_status, body: Data) {
        lock.withLock {
            func refuse(_ message: String, recorded: Bool = true) -> (den_status, Data) {
                if recorded, _problem == nil { _problem = "settings.declare: \(message)" }
                return (DEN_ERR_INVALID_ARGUMENT, Data("settings.declare: \(message)".utf8))
            }
            guard isOpen else {
                return refuse("settings are declared during den_module_entry only", recorded: false)
            }
            guard !declared else { return refuse("settings were already declared (declare them in one call)") }
            declared = true
            let declaration: SettingsDeclaration
            do {
                declaration = try WireFormat.decode(SettingsDeclaration.self, from: request)
            } catch {
                return refuse("malformed request: \(WireFormat.describe(error))")
            }
            if let problem = declaration.problem { return refuse(problem) }
            _settings = declaration.settings
            return (DEN_OK, Data("{}".utf8))
        }
    }
}
