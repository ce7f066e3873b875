import Logging
import Synchronization

/// A swift-log handler that keeps every line it is given, in memory: what a trial load logged
/// (`den modules install` shows a refused module's own lines) and what tests check the host logs.
public final class LogCollector: Sendable {
    public struct Line: Sendable, Equatable {
        public var level: Logger.Level
        public var message: String
        /// The record's metadata (not the logger's own), each value as text.
        public var metadata: [String: String]
        /// The `module` metadata: a module's file name before it is installed, then its id.
        public var module: String? { metadata["module"] }
    }

    private let stored = Mutex<[Line]>([])

    public init() {}

    public var lines: [Line] { stored.withLock { $0 } }

    /// A logger whose lines at `level` and above are kept.
    public func logger(label: String, level: Logger.Level) -> Logger {
        var logger = Logger(label: label) { _ in Handler(log: self) }
        logger.logLevel = level
        return logger
    }

    private struct Handler: LogHandler {
        let log: LogCollector
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let line = Line(level: event.level, message: event.message.description,
                            metadata: (event.metadata ?? [:]).mapValues { "\($0)" })
            log.stored.withLock { $0.append(line) }
        }
    }
}
