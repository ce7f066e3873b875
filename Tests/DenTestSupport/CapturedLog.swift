import Foundation
import Logging
import Synchronization

/// A swift-log handler that keeps every line, for tests that check what the host logs.
public final class CapturedLog: Sendable {
    public struct Line: Sendable {
        public var level: Logger.Level
        public var message: String
        /// The record's metadata (not the logger's own), each value as text.
        public var metadata: [String: String]
        public var module: String? { metadata["module"] }
    }

    private let stored = Mutex<[Line]>([])

    public init() {}

    public var lines: [Line] { stored.withLock { $0 } }

    /// A logger that keeps every level, from trace up.
    public var logger: Logger {
        Logger(label: "den-test") { _ in Handler(log: self) }
    }

    fileprivate func append(_ line: Line) {
        stored.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.append(Line(level: event.level, message: event.message.description,
                            metadata: (event.metadata ?? [:]).mapValues { "\($0)" }))
        }
    }
}
