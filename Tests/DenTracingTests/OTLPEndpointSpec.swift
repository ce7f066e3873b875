import DenTracing
import Testing

@Suite("--otlp-endpoint: an OTLP/HTTP receiver's URL")
struct OTLPEndpointSpec {
    @Test("a bare address gets OTLP's traces path, as OTEL_EXPORTER_OTLP_ENDPOINT does",
          arguments: [("http://127.0.0.1:4318", "http://127.0.0.1:4318/v1/traces"),
                      ("http://collector:4318/", "http://collector:4318/v1/traces"),
                      ("https://otel.example.org", "https://otel.example.org/v1/traces")])
    func bare(text: String, url: String) throws {
        #expect(try OTLPEndpoint.parse(text).get().url == url)
    }

    @Test("a URL with a path is used as it is")
    func withPath() throws {
        #expect(try OTLPEndpoint.parse("http://collector:4318/custom/traces").get().url == "http://collector:4318/custom/traces")
    }

    @Test("what is not an http(s) URL of a host is refused, saying what to give",
          arguments: [("", "is empty"), ("collector:4318", "starts with http://"), ("grpc://collector:4317", "not grpc://"),
                      ("http://", "names no host"), ("http://collector:4318/?x=1", "query"), ("http://collector:99999", "is not a port")])
    func refused(text: String, saying: String) {
        guard case .failure(let problem) = OTLPEndpoint.parse(text) else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(problem.description.contains(saying), "\(problem)")
    }
}
