import DenTracing
import Testing

@Suite("OpenTelemetry's variables: what den's OTLP/HTTP exporter cannot honour is refused before swift-otel sees it")
struct OTelEnvironmentSpec {
    @Test("nothing set, or what the exporter does, passes",
          arguments: [[:], ["OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"], ["OTEL_TRACES_EXPORTER": "otlp", "OTEL_PROPAGATORS": "tracecontext"],
                      ["OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.1"], ["OTEL_SDK_DISABLED": "false"]])
    func accepted(environment: [String: String]) {
        #expect(OTelEnvironment.problems(environment).isEmpty)
    }

    @Test("each value swift-otel would stop the process on, or cannot send with, is named with the way out", arguments: [
        ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc", "not gRPC"),
        ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc", "not gRPC"),
        ("OTEL_TRACES_EXPORTER", "console", "OTLP only"),
        ("OTEL_PROPAGATORS", "tracecontext,baggage", "set it to tracecontext"),
        ("OTEL_PROPAGATORS", "b3", "set it to tracecontext"),
        ("OTEL_TRACES_SAMPLER", "jaeger_remote", "parentbased_"),
        ("OTEL_SDK_DISABLED", "TRUE", "unset one or the other"),
    ])
    func refused(name: String, value: String, saying: String) {
        let problems = OTelEnvironment.problems([name: value])
        #expect(problems.count == 1)
        #expect(problems.first?.contains(name) == true, "\(problems)")
        #expect(problems.first?.contains(saying) == true, "\(problems)")
    }
}
