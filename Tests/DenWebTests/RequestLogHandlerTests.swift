@testable import DenWeb
import DenTestSupport
import Logging
import Testing

@Suite("The server's log handler")
struct RequestLogHandlerTests {
    @Test("request metadata set on the logger reaches a written record, merged under the record's own metadata")
    func mergesRequestMetadata() {
        let log = CapturedLog()
        var logger = Logger(label: "den") { _ in RequestLogHandler(log.logger) }
        logger[metadataKey: "hb.request.id"] = "7"
        logger[metadataKey: "shared"] = "from the request"
        logger.info("served", metadata: ["shared": "from the record", "status": "200"])
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.message == "served")
        #expect(log.lines.first?.metadata == ["hb.request.id": "7", "shared": "from the record", "status": "200"])
    }

    @Test("without request metadata a record passes unchanged; the level is the wrapped handler's")
    func passesThrough() {
        let log = CapturedLog()
        var logger = Logger(label: "den") { _ in RequestLogHandler(log.logger) }
        logger.logLevel = .info
        logger.debug("below the level")
        logger.warning("kept", metadata: ["module": "main"])
        logger.logLevel = .debug
        logger.debug("now shown")
        #expect(log.lines.map(\.message) == ["kept", "now shown"])
        #expect(log.lines.first?.metadata == ["module": "main"])
        #expect(log.lines.last?.metadata == [:])
    }
}
