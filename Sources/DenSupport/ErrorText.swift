import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A file-system error in words. FoundationEssentials has no `localizedDescription`; Foundation's
/// was generic anyway ("The operation could not be completed. The file doesn’t exist."), so this
/// gives the system's own reason ("No such file or directory"), which says what to fix.
package enum ErrorText {
    package static func describe(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        if let cocoa = error as? CocoaError {
            if let text = cocoa.userInfo["NSLocalizedDescription"] as? String { return text }
            if let underlying = cocoa.underlying { return describe(underlying) }
        }
        return "\(error)"
    }
}
