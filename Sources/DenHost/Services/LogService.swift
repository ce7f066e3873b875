import DenLibraryContracts
import DenKit
import DenSupport
import FoundationEssentials
import Logging

/// `log`: a module's log line, written through swift-log with the module's id as metadata.
package struct LogService: HostService {
    private let logger: Logger

    package init(logger: Logger) {
        self.logger = logger
    }

    /// Longer messages are cut (with "…"): a log line is not a data channel.
    package static let maxMessageCharacters = 4096

    package var operations: [String] { ["log"] }

    package func handle(_ operation: String, request: Data, caller: ServiceCaller) throws(ServiceFailure) -> Data {
        let line = try decode(LogRequest.self, request, for: operation)
        let level: Logger.Level = switch line.level {
        case .debug: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
        // One call, one log line: a module cannot forge lines (newlines) or reach the terminal (ESC).
        var metadata: Logger.Metadata = ["module": "\(ModuleText.singleLine(caller.moduleID))"]
        // Under a trace, the line names it: an operator goes from the log to the request's spans.
        if let span = CallTrace.span { metadata["trace"] = "\(span.traceparent)" }
        logger.log(level: level, "\(ModuleText.singleLine(line.message, limit: LogService.maxMessageCharacters))", metadata: metadata)
        return try encode(Empty(), for: operation)
    }
}
