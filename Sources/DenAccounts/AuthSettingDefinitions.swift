import DenLibraryContracts
import DenKit
import FoundationEssentials

/// The host's own auth settings, declared and checked exactly like a module's settings so an
/// administrator changes them the same way: `den config set den.auth lockout_minutes 30`.
/// They are stored as `config.<name>` in the host's auth namespace, which no module can reach,
/// under the settings id `den.auth` (a dot, so no module id can ever take it).
package enum AuthSettingDefinitions {
    /// The id `den config` knows these settings by.
    package static let settingsID = "den.auth"
    /// The storage namespace they live in (the accounts' own).
    package static let namespace = AccountStore.namespace

    package static let maxFailedAttempts = SettingDefinition(
        "max_failed_attempts", kind: .integer, default: "5",
        help: "Wrong passwords in a row before each further attempt from an unknown device waits (4× that per client address).", minimum: 1, maximum: 100)
    package static let lockoutMinutes = SettingDefinition(
        "lockout_minutes", kind: .integer, default: "15",
        help: "The longest wait between login attempts after failures (the delays double up to it).", minimum: 1, maximum: 7 * 24 * 60)
    package static let resetTokenMinutes = SettingDefinition(
        "reset_token_minutes", kind: .integer, default: "30",
        help: "How long a token from `den users reset-token` can be used.", minimum: 1, maximum: 7 * 24 * 60)

    package static let all = [maxFailedAttempts, lockoutMinutes, resetTokenMinutes]

    /// `base` with every valid stored value applied, and a line for each stored value that was
    /// refused (its rule broken, or storage unreadable): the value in `base` stays then.
    package static func apply(to base: AuthSettings, engine: any StorageEngine) -> (settings: AuthSettings, problems: [String]) {
        let settings = ModuleSettings(all) { key in try engine.get(namespace: namespace, key: key) }
        var result = base
        var problems: [String] = []
        func stored(_ definition: SettingDefinition) -> Int? {
            let value = settings.value(definition.name)
            if let problem = value.problem { problems.append("\(settingsID): \(problem)") }
            return value.isDefault ? nil : Int(value.value)
        }
        if let attempts = stored(maxFailedAttempts) { result.maxFailedAttempts = attempts }
        if let minutes = stored(lockoutMinutes) { result.lockoutDuration = TimeInterval(minutes * 60) }
        if let minutes = stored(resetTokenMinutes) { result.resetTokenLifetime = TimeInterval(minutes * 60) }
        return (result, problems)
    }
}
