import DenHost
import DenSupport
import Logging

/// The host's in-memory log handler, for tests that check what the host logs.
package typealias CapturedLog = LogCollector

extension LogCollector {
    /// A logger that keeps every level, from trace up.
    package var logger: Logger { logger(label: "den-test", level: .trace) }
}
