#if canImport(Glibc)
import Glibc
#endif

/// The process's environment, read from `environ` itself. `ProcessInfo.processInfo.environment`
/// sets up ProcessInfo on first use and builds a new dictionary on every call; a `den render`
/// start asked for it six times, about half a millisecond in all (docs/PERFORMANCE.md).
public enum ProcessEnvironment {
    /// Every variable, as it is now (a later `setenv` shows in the next call). A variable
    /// without `=` is skipped; of two with one name, the first wins, as `getenv` would.
    public static func current() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }

    /// One variable, as it is now; nil when unset.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
