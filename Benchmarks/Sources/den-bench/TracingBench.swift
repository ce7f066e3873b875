import Foundation

/// Figure 6t: what `den serve --otlp-endpoint` costs. Figure 6m's two dens, the measured one
/// exporting a span of every request, module call and service call over OTLP/HTTP (swift-otel's
/// batch exporter, every request sampled) to a receiver on this machine that reads each batch and
/// answers 200, as a collector does, without decoding it: the figure is den's cost, not a
/// collector's. At the end the receiver must have received batches, or the bench reports a failure.
struct TracingBench {
    var metrics: MetricsBench

    struct Result {
        var figures: MetricsBench.Result
        var batches: Int
        var bytes: Int
    }

    /// A receiver that reads and drops: one line per batch on its standard output.
    static let sink = """
    import sys
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    class Sink(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            print(len(body), flush=True)
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", "0")
            self.end_headers()
        def log_message(self, *args):
            pass
    server = ThreadingHTTPServer(("127.0.0.1", 0), Sink)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """

    func run() throws -> Result {
        try FileManager.default.createDirectory(at: metrics.workDirectory, withIntermediateDirectories: true)
        let sink = Process()
        sink.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sink.arguments = ["python3", "-c", Self.sink]
        let output = Pipe()
        sink.standardOutput = output
        try sink.run()
        defer { sink.terminate(); sink.waitUntilExit() }
        var first = Data()
        while !first.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            first.append(chunk)
        }
        let lines = String(decoding: first, as: UTF8.self).split(separator: "\n")
        guard let port = lines.first.flatMap({ Int($0) }) else { throw LoopbackHTTP.Failure(description: "the OTLP sink did not start") }
        // Counted as the batches arrive, so the sink never blocks on a full pipe.
        let counts = Counts()
        for line in lines.dropFirst() { counts.add(line) }
        let reader = output.fileHandleForReading
        Thread {
            var rest = ""
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                rest += String(decoding: chunk, as: UTF8.self)
                while let newline = rest.firstIndex(of: "\n") {
                    counts.add(rest[..<newline])
                    rest = String(rest[rest.index(after: newline)...])
                }
            }
        }.start()
        var bench = metrics
        bench.onArguments = ["--otlp-endpoint", "http://127.0.0.1:\(port)"]
        var figures = try bench.run()
        Thread.sleep(forTimeInterval: 1)
        let (batches, bytes) = counts.value
        if batches == 0 { figures.failures.append("the receiver got no spans from the den with --otlp-endpoint") }
        return Result(figures: figures, batches: batches, bytes: bytes)
    }

    final class Counts: @unchecked Sendable {
        private let lock = NSLock()
        private var batches = 0, bytes = 0
        func add(_ line: Substring) {
            guard let size = Int(line) else { return }
            lock.withLock { batches += 1; bytes += size }
        }
        var value: (Int, Int) { lock.withLock { (batches, bytes) } }
    }
}
