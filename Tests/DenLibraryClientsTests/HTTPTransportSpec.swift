import CDenLibraries
import DenLibraryClients
import DenLibraryContracts
import DenTestSupport
import Foundation
import Testing

@Suite("The http service's transport library, loaded on first use")
struct HTTPTransportSpec {
    @Test("a missing transport library is a clear service failure, not a crash")
    func missingLibrary() throws {
        let transport = HTTPTransport(library: URL(fileURLWithPath: "/nonexistent/libDenHTTPTransport.so"))
        #expect {
            try transport.get(TransportRequest(url: "http://127.0.0.1:9/", headers: [:], timeoutMilliseconds: 100, maxBytes: 10))
        } throws: { error in
            let failure = error as? ServiceFailure
            return failure?.kind == .unavailable
                && failure?.message.contains("/nonexistent/libDenHTTPTransport.so") == true
                && failure?.message.contains("Scripts/build.sh") == true
        }
    }

    @Test("a library without the transport function is refused with its path")
    func wrongLibrary() throws {
        let about = try BuildProducts.require(BuildProducts.library("AboutModule"))
        let transport = HTTPTransport(library: about)
        #expect {
            try transport.get(TransportRequest(url: "http://127.0.0.1:9/", headers: [:], timeoutMilliseconds: 100, maxBytes: 10))
        } throws: { error in
            (error as? ServiceFailure)?.message.contains("does not export den_http_transport_get") == true
        }
    }

    @Test("neither den nor den-commands links FoundationNetworking: it loads on the first fetch", arguments: ["den", "den-commands"])
    func hostDoesNotLinkNetworking(executable: String) throws {
        let file = BuildProducts.directory.appendingPathComponent(executable)
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["ldd", BuildProducts.require(file).path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("libswiftCore"), "ldd listed the libraries")
        #expect(!result.stdout.contains("FoundationNetworking"))
        #expect(!result.stdout.contains("libcurl"))
    }
}
