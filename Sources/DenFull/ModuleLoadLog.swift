import Logging
import Synchronization

/// The log lines modules write while a trial runtime loads them (`den modules install`), kept
/// so a refusal can show what the refused module said about itself — often the real reason
/// ("FAILING_API_KEY is not set") behind "its entry point returned DEN_ERR_SERVICE (6)".
final class ModuleLoadLog: Sendable {
    struct Line: Sendable, Equatable {
        var level: Logger.Level
        var message: String
        /// The `module` metadata: the file name before the module is installed, then its id.
        var module: String
    }

    private let stored = Mutex<[Line]>([])

    /// A logger that keeps modules' lines (those with `module` metadata) and drops the host's own.
    var logger: Logger {
        var logger = Logger(label: "den-install") { _ in Handler(log: self) }
        logger.logLevel = .info
        return logger
    }

    /// The lines logged under the file name `file` or the module id `id` (nil: not that way),
    /// as the user reads them.
    func lines(file: String?, id: String?) -> [String] {
        stored.withLock { $0 }
            .filter { line in (file != nil && line.module == file) || (id != nil && line.module == id) }
            .map { "[\($0.level.rawValue)] \($0.message)" }
    }

    private struct Handler: LogHandler {
        let log: ModuleLoadLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            guard let module = event.metadata?["module"] else { return }
            let line = Line(level: event.level, message: event.message.description, module: "\(module)")
            log.stored.withLock { $0.append(line) }
        }
    }
}
