@testable import DenWeb
import Logging
import Synchronization
import Testing

@Suite("The server's log handler")
struct RequestLogHandlerTests {
    /// Keeps every event the server's handler passes on.
    final class Received: Sendable {
        let events = Mutex<[(message: String, metadata: [String: String])]>([])
    }

    struct Capturing: LogHandler {
        let received: Received
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let metadata = (event.metadata ?? [:]).mapValues { "\($0)" }
            received.events.withLock { $0.append((event.message.description, metadata)) }
        }
    }

    @Test("request metadata set on the logger reaches a written record, merged under the record's own metadata")
    func mergesRequestMetadata() {
        let received = Received()
        var logger = Logger(label: "den") { _ in RequestLogHandler(Logger(label: "den") { _ in Capturing(received: received) }) }
        logger[metadataKey: "hb.request.id"] = "7"
        logger[metadataKey: "shared"] = "from the request"
        logger.info("served", metadata: ["shared": "from the record", "status": "200"])
        let events = received.events.withLock { $0 }
        #expect(events.count == 1)
        #expect(events.first?.message == "served")
        #expect(events.first?.metadata == ["hb.request.id": "7", "shared": "from the record", "status": "200"])
    }

    @Test("without request metadata a record passes unchanged; the level is the wrapped handler's")
    func passesThrough() {
        let received = Received()
        var logger = Logger(label: "den") { _ in RequestLogHandler(Logger(label: "den") { _ in Capturing(received: received) }) }
        logger.debug("below the level")
        logger.warning("kept", metadata: ["module": "main"])
        logger.logLevel = .debug
        logger.debug("now shown")
        let events = received.events.withLock { $0 }
        #expect(events.map(\.message) == ["kept", "now shown"])
        #expect(events.first?.metadata == ["module": "main"])
        #expect(events.last?.metadata == [:])
    }
}
