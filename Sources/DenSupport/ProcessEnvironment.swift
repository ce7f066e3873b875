#if canImport(Glibc)
import Glibc
#endif

/// The process's environment, read from `environ` itself. `ProcessInfo.processInfo.environment`
/// sets up ProcessInfo on first use and builds a new dictionary on every call; a `den render`
/// start asked for it six times, about half a millisecond in all (docs/PERFORMANCE.md).
public enum ProcessEnvironment {
    /// The prefixes of every variable the host's own settings read (`DEN_PLUGIN_PATH`,
    /// `XDG_DATA_HOME`, …): `hostVariables()` keeps only these.
    package static let hostPrefixes = ["DEN_", "XDG_"]

    /// Every variable, as it is now (a later `setenv` shows in the next call). A variable
    /// without `=` is skipped; of two with one name, the first wins, as `getenv` would.
    package static func current() -> [String: String] {
        current(in: environ)
    }

    /// `current()` of an `environ`-shaped list (specs pass their own, see `hostVariables(in:)`).
    package static func current(in entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
        variables(in: entries) { _ in true }
    }

    /// The variables the host's settings read (`hostPrefixes`), as `current()` has them. Every
    /// variable costs a start ≈ 5,000 instructions as a dictionary entry, and a shell has dozens
    /// den never asks for; these are picked by their bytes before any `String` is made.
    public static func hostVariables() -> [String: String] {
        hostVariables(in: environ)
    }

    /// `hostVariables()` of an `environ`-shaped list (a spec passes its own: `setenv` while
    /// other tests read the environment is a use-after-free in glibc).
    package static func hostVariables(in entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
        let prefixes = hostPrefixes.map { Array($0.utf8) }
        return variables(in: entries) { entry in
            prefixes.contains { prefix in
                prefix.indices.allSatisfy { UInt8(bitPattern: entry[$0]) == prefix[$0] } // stops at the entry's NUL
            }
        }
    }

    /// One variable, as it is now; nil when unset.
    package static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    private static func variables(in entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                                  where keeps: (UnsafePointer<CChar>) -> Bool) -> [String: String] {
        var variables: [String: String] = [:]
        var entry = entries
        while let pointer = entry.pointee {
            entry += 1
            guard keeps(UnsafePointer(pointer)) else { continue }
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
        }
        return variables
    }
}
