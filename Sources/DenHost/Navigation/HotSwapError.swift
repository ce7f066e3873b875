import DenSupport
import FoundationEssentials

/// Why a new version of a plugin was refused as a whole; the old version keeps serving. Like
/// `PluginLoadError`, every message names the file, the cause and the fix.
public struct HotSwapError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Cause: Error, Sendable, Equatable {
        /// The new file failed a load check or its entry point (ABI, toolchain, truncated, ...).
        case load(PluginLoadError)
        /// The file now provides another module than the one it served.
        case otherModule(expected: String, found: String)
        /// A route of the new version conflicts with another module's.
        case routeConflict(String)
        /// The new version could not build a screen that is open in a session.
        case rebuildFailed(route: String, detail: String)
        /// The new version could not restore a screen's state (only under `.refuseSwap`).
        case restoreFailed(route: String)
    }

    /// The plugin file as the user named it.
    package var file: String
    package var cause: Cause

    package init(file: String, cause: Cause) {
        self.file = file
        self.cause = cause
    }

    public var description: String {
        if case .load(let error) = cause { return "hot swap refused, the old version keeps serving: \(error.description)" }
        return ModuleText.singleLine("hot swap refused, the old version keeps serving: \(file): \(reason) — \(fix)")
    }

    package var reason: String {
        switch cause {
        case .load(let error): error.reason
        case .otherModule(let expected, let found): "the file now provides module '\(found)', but it served '\(expected)'"
        case .routeConflict(let detail): detail
        case .rebuildFailed(let route, let detail): "the new version could not build the open screen '\(route)': \(detail)"
        case .restoreFailed(let route): "the new version could not restore the state of the open screen '\(route)'"
        }
    }

    package var fix: String {
        switch cause {
        case .load(let error): error.fix
        case .otherModule: "keep the module id, or give the new module a file of its own (and restart den)"
        case .routeConflict: "change the pattern in the new version, or drop the other module with --plugins"
        case .rebuildFailed: "fix the builder and rebuild, or leave that screen first"
        case .restoreFailed: "make restore accept the old state (bump the state version and migrate), or let it start fresh (the default policy)"
        }
    }
}

/// How a swap treats a screen whose state the new version cannot restore.
public struct HotSwapPolicy: Sendable, Equatable {
    public enum RestoreFailure: Sendable, Equatable {
        /// Build that screen fresh, say so on it and in the report, and go on with the swap (default).
        case rebuildFresh
        /// Refuse the whole new version.
        case refuseSwap
    }

    public var onRestoreFailure: RestoreFailure

    public init(onRestoreFailure: RestoreFailure = .rebuildFresh) {
        self.onRestoreFailure = onRestoreFailure
    }
}
