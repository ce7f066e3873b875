import DenTestSupport
import Foundation
import Testing

/// `den serve --otlp-endpoint` as an operator meets it: a real den behind a real nginx, spans sent
/// by swift-otel's OTLP/HTTP exporter to a real receiver that decodes the protobuf with
/// OpenTelemetry's official classes (Tests/Fixtures/otlp_receiver.py; docs/OBSERVABILITY.md).
@Suite("Traces: a span per request, module call and service call, continuing nginx's traceparent")
struct TracingEndToEndTests {
    static let traceID = "0af7651916cd43dd8448eb211c80319c"
    static let parentID = "b7ad6b7169203331"
    static let traceparent = "00-\(traceID)-\(parentID)-01"

    /// A den serving with `--otlp-endpoint` pointed at a fresh receiver, batches sent every 100 ms.
    struct Traced {
        let den: DenCommand
        let receiver: OTLPReceiver
        let served: ServedDen

        init(_ extra: [String] = [], plugins: [String]? = nil, delayMilliseconds: Int = 100, endpoint: String? = nil) throws {
            den = try DenCommand()
            receiver = try OTLPReceiver(directory: den.temp.url)
            var arguments = ["serve", "--port", "0", "--otlp-endpoint", endpoint ?? receiver.endpoint] + extra
            if let plugins { arguments += ["--plugin-dir", try den.pluginFolder(plugins).path, "--no-default-modules"] }
            served = try ServedDen(BuildProducts.den, arguments: arguments,
                                   environment: ["DEN_DATA_DIR": den.temp.path("data").path, "DEN_CACHE_DIR": den.temp.path("cache").path,
                                                 "XDG_DATA_HOME": den.temp.path("xdg").path, "DEN_PLUGIN_PATH": "",
                                                 "OTEL_BSP_SCHEDULE_DELAY": "\(delayMilliseconds)"])
        }
    }

    @Test("through nginx, a request continues the traceparent it came with; its module calls and their storage calls hang under it, with the module's id, version and signer")
    func throughNginx() throws {
        let traced = try Traced()
        let port = try #require(traced.served.port, "\(traced.served.printed)")
        #expect(traced.served.printed.contains("Den sends its spans to \(traced.receiver.endpoint)/v1/traces"), "\(traced.served.printed)")
        let proxy = try NginxProxy(upstreams: [port])
        let reply = try RawHTTP.get(port: proxy.port, "/main", headers: ["traceparent": Self.traceparent])
        #expect(reply.status == 200, "\(reply.head)")

        let spans = traced.receiver.spans { spans in spans.contains { $0.name == "GET main" } && spans.contains { $0.name == "storage.get" } }
        let request = try #require(spans.first { $0.name == "GET main" }, "\(traced.receiver.lines)")
        #expect(request.kind == 2, "a server span")
        #expect(request.traceID == Self.traceID, "nginx's trace is continued")
        #expect(request.parentSpanID == Self.parentID)
        #expect(request.attributes["http.response.status_code"] == .int(200))
        #expect(request.string("url.path") == "/main")
        #expect(request.resource["service.name"] == .string("den"))
        #expect(request.string("http.request.method") == "GET")
        #expect(request.resource["service.instance.id"] != nil, "three hosts behind one nginx each say which they are")

        let build = try #require(spans.first { $0.name == "build main" }, "\(spans.map(\.name))")
        #expect(build.traceID == Self.traceID)
        #expect(build.parentSpanID == request.spanID)
        #expect(build.string("den.module.id") == "main")
        #expect(build.string("den.module.version") == "1.0.0")
        #expect(build.string("den.module.signer") == "unsigned")
        #expect(build.string("den.module.hosting") == "in-process")
        #expect(build.string("den.call.pattern") == "main")
        let storage = try #require(spans.first { $0.name == "storage.get" && $0.parentSpanID == build.spanID }, "\(spans.map(\.name))")
        #expect(storage.traceID == Self.traceID)
        #expect(storage.string("den.module.id") == "main")
        #expect(!traced.receiver.lines.contains { $0.contains("\"error\"") }, "every body decoded: \(traced.receiver.lines)")
    }

    @Test("a route with an id is named by its pattern, and a request without a traceparent starts a trace of its own")
    func patternAndRoot() throws {
        let traced = try Traced()
        let port = try #require(traced.served.port)
        #expect(try RawHTTP.get(port: port, "/jogs/42").status == 303, "jogs asks for a login")
        let spans = traced.receiver.spans { $0.contains { $0.name.hasPrefix("GET jogs") } }
        let request = try #require(spans.first { $0.name.hasPrefix("GET jogs") }, "\(spans.map(\.name))")
        #expect(request.name == "GET jogs/<int:id>", "never the raw path")
        #expect(request.parentSpanID.isEmpty)
        #expect(request.traceID.count == 32 && request.traceID != String(repeating: "0", count: 32))
    }

    @Test("a malformed traceparent is ignored: the page is served, and its span starts a new trace",
          arguments: ["00-zzzz-b7ad6b7169203331-01", "00-00000000000000000000000000000000-b7ad6b7169203331-01", String(repeating: "9", count: 4000)])
    func malformed(header: String) throws {
        let traced = try Traced()
        let port = try #require(traced.served.port)
        #expect(try RawHTTP.get(port: port, "/about", headers: ["traceparent": header]).status == 200)
        let spans = traced.receiver.spans { $0.contains { $0.name == "GET about" } }
        let request = try #require(spans.first { $0.name == "GET about" })
        #expect(request.parentSpanID.isEmpty, "\(request)")
        #expect(request.traceID != "00000000000000000000000000000000")
    }

    @Test("a traceparent whose sampled flag is off is continued unsampled: den sends nothing for that request")
    func unsampled() throws {
        let traced = try Traced()
        let port = try #require(traced.served.port)
        #expect(try RawHTTP.get(port: port, "/about", headers: ["traceparent": "00-\(Self.traceID)-\(Self.parentID)-00"]).status == 200)
        #expect(try RawHTTP.get(port: port, "/main").status == 200)
        let spans = traced.receiver.spans { $0.contains { $0.name == "GET main" } }
        #expect(spans.contains { $0.name == "GET main" })
        #expect(!spans.contains { $0.name == "GET about" || $0.traceID == Self.traceID }, "\(spans.map(\.name))")
    }

    @Test("an isolated module's calls, and the service calls its worker makes, hang under the request like an in-process module's")
    func isolatedWorker() throws {
        let traced = try Traced(["--isolate", "faults"], plugins: ["AboutModule", "DenFixtureFaults"])
        let port = try #require(traced.served.port)
        let browser = DeploymentEndToEndTests.ProxiedBrowser(port: port)
        #expect(try browser.get("/faults").status == 200)
        try browser.post([("_route", "faults"), ("_action", "log")])
        let spans = traced.receiver.spans { spans in spans.contains { $0.name == "log" } }
        let log = try #require(spans.first { $0.name == "log" }, "\(spans.map(\.name))")
        let handle = try #require(spans.first { $0.spanID == log.parentSpanID }, "the log call hangs under the module call")
        #expect(handle.name == "handle faults")
        #expect(handle.string("den.module.hosting") == "isolated")
        let request = try #require(spans.first { $0.spanID == handle.parentSpanID })
        #expect(request.name == "POST /_action")
        #expect(Set([log.traceID, handle.traceID, request.traceID]).count == 1)
        #expect(traced.served.log.contains("trace=00-\(log.traceID)-\(log.spanID)-01"), "the module's log line names its span: \(traced.served.log)")

        // The worker is told the call's trace: when the module kills it, its last words name it.
        let form = "_csrf=\(browser.csrf ?? "")&_route=faults&_action=segv"
        let cookies = [browser.cookie, browser.revision].compactMap { $0 }.joined(separator: "; ")
        let crashed = try RawHTTP.post(port: port, "/_action", form: form, cookie: cookies, headers: ["traceparent": Self.traceparent])
        #expect(crashed.status == 303, "\(crashed.head)")
        let deadline = Date().addingTimeInterval(10)
        while !traced.served.log.contains("crashed its worker"), Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(traced.served.log.contains("module 'faults' crashed its worker (pid "), "\(traced.served.log)")
        #expect(traced.served.log.contains("in a handle call of trace 00-\(Self.traceID)-"), "\(traced.served.log)")
    }

    @Test("the spans still queued are sent when den stops")
    func flushedAtStop() throws {
        let traced = try Traced(delayMilliseconds: 60_000)
        let port = try #require(traced.served.port)
        #expect(try RawHTTP.get(port: port, "/about").status == 200)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(traced.receiver.spans.isEmpty, "a minute's batch delay: nothing sent yet")
        traced.served.stop()
        #expect(traced.receiver.spans(within: 5) { $0.contains { $0.name == "GET about" } }.contains { $0.name == "GET about" })
    }

    @Test("a receiver that is not there costs a user nothing: pages answer, and den still stops within seconds")
    func receiverGone() throws {
        let traced = try Traced(endpoint: "http://127.0.0.1:1")
        let port = try #require(traced.served.port)
        for _ in 0..<20 { #expect(try RawHTTP.get(port: port, "/about").status == 200) }
        Thread.sleep(forTimeInterval: 0.5)
        let started = Date()
        traced.served.stop()
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test("a bad endpoint is refused before den starts, with the form to use", arguments: [
        (["serve", "--otlp-endpoint", "grpc://127.0.0.1:4317"], [:], "--otlp-endpoint"),
        (["serve", "--otlp-endpoint", "collector"], [:], "--otlp-endpoint"),
        (["serve", "--port", "0"], ["DEN_OTLP_ENDPOINT": "ftp://collector"], "DEN_OTLP_ENDPOINT"),
    ])
    func refused(arguments: [String], environment: [String: String], naming: String) throws {
        try Self.refusal(arguments, environment, naming: naming, form: "http://127.0.0.1:4318")
    }

    @Test("an OpenTelemetry variable den's exporter cannot honour is refused with the way out, never a crash", arguments: [
        ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc", "not gRPC"),
        ("OTEL_PROPAGATORS", "tracecontext,baggage", "set it to tracecontext"),
        ("OTEL_TRACES_SAMPLER", "xray", "parentbased_"),
    ])
    func refusedEnvironment(name: String, value: String, saying: String) throws {
        try Self.refusal(["serve", "--port", "0", "--otlp-endpoint", "http://127.0.0.1:4318"], [name: value], naming: name, form: saying)
    }

    static func refusal(_ arguments: [String], _ environment: [String: String], naming: String, form: String) throws {
        let den = try DenCommand()
        let result = try den.run(arguments, environment: environment)
        #expect(result.status == 64, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains(naming), "\(result.stderr)")
        #expect(result.stderr.contains(form), "the way out: \(result.stderr)")
    }
}
