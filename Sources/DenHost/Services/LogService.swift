import DenKit
import Foundation
import Logging

/// `log`: a module's log line, written through swift-log with the module's id as metadata.
public struct LogService: HostService {
    private let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    public var operations: [String] { ["log"] }

    public func handle(_ operation: String, request: Data, caller: ServiceCaller) throws(ServiceFailure) -> Data {
        let line = try decode(LogRequest.self, request, for: operation)
        let level: Logger.Level = switch line.level {
        case .debug: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
        logger.log(level: level, "\(line.message)", metadata: ["module": "\(caller.moduleID)"])
        return try encode(Empty(), for: operation)
    }
}
