import Foundation
import Logging
import Synchronization

/// A swift-log handler that keeps every line, for tests that check what the host logs.
final class CapturedLog: Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var module: String?
    }

    private let stored = Mutex<[Line]>([])

    var lines: [Line] { stored.withLock { $0 } }

    var logger: Logger {
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
                            module: event.metadata?["module"].map { "\($0)" }))
        }
    }
}
