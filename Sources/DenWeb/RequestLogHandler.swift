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

    func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty { event.metadata = metadata.merging(event.metadata ?? [:]) { $1 } }
        base.log(event: event)
    }
}
