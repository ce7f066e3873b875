import Logging
import Synchronization

/// A swift-log handler that keeps every line it is given, in memory: what a trial load logged
/// (`den modules install` shows a refused module's own lines) and what tests check the host logs.
package final class LogCollector: Sendable {
    package struct Line: Sendable, Equatable {
        package var level: Logger.Level
        package var message: String
        /// The record's metadata (not the logger's own), each value as text.
        package var metadata: [String: String]
        /// The `module` metadata: a module's file name before it is installed, then its id.
        package var module: String? { metadata["module"] }
    }

    private let stored = Mutex<[Line]>([])

    package init() {}

    package var lines: [Line] { stored.withLock { $0 } }

    /// A logger whose lines at `level` and above are kept.
    package func logger(label: String, level: Logger.Level) -> Logger {
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
