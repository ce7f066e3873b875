import Logging

/// Logs a warning for a module call that took longer than `threshold` (`--slow-call-ms`),
/// naming the module, what it was called for and the route pattern: the operator's first clue
/// to which module makes pages slow.
package struct SlowCallWarning: ModuleCallObserver {
    package var threshold: Duration
    package var logger: Logger

    package init(threshold: Duration, logger: Logger) {
        self.threshold = threshold
        self.logger = logger
    }

    package func moduleCallEnded(_ call: ModuleCall, took: Duration, result: ModuleCallResult) {
        guard took >= threshold, result != .gaveUp else { return } // a call given up has its own error
        let place = switch call.kind {
        case .build, .handle: "route \(call.pattern)"
        case .export: "export \(call.pattern)"
        }
        logger.warning("slow module call: \(call) took \(Self.milliseconds(took)) ms (\(place); over --slow-call-ms \(Self.milliseconds(threshold)))",
                       metadata: ["module": "\(call.moduleID)", "route": "\(call.pattern)", "ms": "\(Self.milliseconds(took))"])
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
