/// OpenTelemetry's own environment variables that swift-otel reads on top of den's settings,
/// checked first: some values stop a process in swift-otel (a gRPC exporter, which den is built
/// without; a sampler or propagator it does not implement), so den refuses them with a reason.
public enum OTelEnvironment {
    /// What is wrong with `environment` for den's OTLP/HTTP exporter; empty when nothing is.
    public static func problems(_ environment: [String: String]) -> [String] {
        var problems: [String] = []
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
        }
        if value("OTEL_SDK_DISABLED") == "true" {
            problems.append("OTEL_SDK_DISABLED=true turns OpenTelemetry off, yet den was asked to send spans; unset one or the other")
        }
        if let exporter = value("OTEL_TRACES_EXPORTER"), exporter != "otlp" {
            problems.append("OTEL_TRACES_EXPORTER=\(exporter): den sends spans over OTLP only; unset it, or set it to otlp")
        }
        for name in ["OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"] {
            if let wire = value(name), wire != "http/protobuf", wire != "http/json" {
                problems.append("\(name)=\(wire): den sends OTLP over HTTP (http/protobuf, the default, or http/json), not gRPC; unset it")
            }
        }
        if let sampler = value("OTEL_TRACES_SAMPLER"), ["jaeger_remote", "parentbased_jaeger_remote", "xray"].contains(sampler) {
            problems.append("OTEL_TRACES_SAMPLER=\(sampler) is not one den's exporter implements; use always_on, always_off, traceidratio or their parentbased_ forms")
        }
        if let propagators = value("OTEL_PROPAGATORS") {
            let names = propagators.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if names != ["tracecontext"] {
                problems.append("OTEL_PROPAGATORS=\(propagators): den reads and passes on W3C trace context (traceparent) only; unset it, or set it to tracecontext")
            }
        }
        return problems
    }
}
