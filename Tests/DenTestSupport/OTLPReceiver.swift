import Foundation

/// `Tests/Fixtures/otlp_receiver.py`: a real OTLP/HTTP receiver that decodes what den exports
/// with OpenTelemetry's official protobuf classes and keeps each span as a JSON line.
package final class OTLPReceiver: @unchecked Sendable {
    package struct Span: Sendable, Decodable {
        package var name: String
        /// OTLP's SpanKind: 1 internal, 2 server, 3 client.
        package var kind: Int
        package var traceID: String
        package var spanID: String
        package var parentSpanID: String
        /// OTLP's StatusCode: 0 unset, 1 ok, 2 error.
        package var status: Int
        package var statusMessage: String
        package var attributes: [String: Value]
        package var resource: [String: Value]

        package enum Value: Sendable, Decodable, Equatable {
            case string(String), int(Int), other

            package init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let text = try? container.decode(String.self) { self = .string(text) }
                else if let number = try? container.decode(Int.self) { self = .int(number) }
                else { self = .other }
            }
        }

        package func string(_ key: String) -> String? {
            if case .string(let text) = attributes[key] { text } else { nil }
        }

        enum CodingKeys: String, CodingKey {
            case name, kind, status, attributes, resource
            case traceID = "trace_id", spanID = "span_id", parentSpanID = "parent_span_id", statusMessage = "status_message"
        }
    }

    package let port: Int
    private let process: Spawned
    private let file: URL

    package var endpoint: String { "http://127.0.0.1:\(port)" }

    package init(directory: URL) throws {
        file = directory.appendingPathComponent("spans-\(UUID().uuidString).jsonl")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/otlp_receiver.py")
        process = try Spawned(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, file.path], environment: ProcessInfo.processInfo.environment)
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = process.output.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            _ = process.wait()
            let message = String(decoding: process.errors.readDataToEndOfFile(), as: UTF8.self)
            throw StubServerError("the OTLP receiver did not start (pip install opentelemetry-proto; Scripts/setup.sh does): \(message)")
        }
        self.port = port
    }

    /// Every line the receiver wrote: its spans, and `{"error": …}` for a body it could not decode.
    package var lines: [String] {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    package var spans: [Span] {
        lines.compactMap { try? JSONDecoder().decode(Span.self, from: Data($0.utf8)) }
    }

    /// The spans once `enough` holds of them, or what arrived when `timeout` passed.
    package func spans(within timeout: TimeInterval = 15, until enough: ([Span]) -> Bool) -> [Span] {
        let deadline = Date().addingTimeInterval(timeout)
        var spans = self.spans
        while !enough(spans) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            spans = self.spans
        }
        return spans
    }

    package func stop() {
        try? process.input.close()
        if process.isRunning { process.terminate() }
        _ = process.wait()
    }

    deinit { stop() }
}
