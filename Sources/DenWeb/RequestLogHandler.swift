import Logging

/// The server's log handler: keeps the metadata Hummingbird sets on every request (its id) aside
/// and merges it only into records actually written. The host's stream handler re-formats all
/// of its metadata on every change, which cost every request a few per cent of its time.
struct RequestLogHandler: LogHandler {
    private var base: any LogHandler
    var metadata: Logger.Metadata = [:]

    init(_ logger: Logger) {
        base = logger.handler
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(level: Logger.Level, message: Logger.Message, metadata explicit: Logger.Metadata?, source: String,
             file: String, function: String, line: UInt) {
        let merged = metadata.isEmpty ? explicit : metadata.merging(explicit ?? [:]) { $1 }
        base.log(level: level, message: message, metadata: merged, source: source, file: file, function: function, line: line)
    }
}
