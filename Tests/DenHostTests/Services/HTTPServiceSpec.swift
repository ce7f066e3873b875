import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

/// `http.get` against `Tests/Fixtures/stub_http_server.py` on 127.0.0.1.
@Suite("http service")
struct HTTPServiceSpec {
    let http = HTTPService()

    private func fetch(_ request: HTTPGetRequest) throws(ServiceFailure) -> HTTPResponse {
        try http.get(request)
    }

    @Test("offers http.get")
    func operations() {
        #expect(http.operations == ["http.get"])
    }

    @Test("a 200 answer carries status, lower-cased headers and body")
    func success() throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let response = try fetch(HTTPGetRequest(url: server.url("/ok")))
        #expect(response.status == 200)
        #expect(response.text == "hello from stub")
        #expect(response.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(response.headers["x-stub"] == "den")
        #expect(response.header("X-Stub") == "den")
        #expect(response.isSuccess)
    }

    @Test("the JSON answer carries the body as base64")
    func jsonAnswer() throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let answer = try ServiceTestSupport.call(http, "http.get", #"{"url":"\#(server.url("/ok"))","timeout_ms":5000}"#)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
        #expect(object["status"] as? Int == 200)
        #expect(object["body"] as? String == Data("hello from stub".utf8).base64EncodedString())
        #expect((object["headers"] as? [String: String])?["x-stub"] == "den")
    }

    @Test("non-2xx statuses are answers, not failures", arguments: [503, 404, 500])
    func nonSuccess(status: Int) throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let response = try fetch(HTTPGetRequest(url: server.url("/status/\(status)")))
        #expect(response.status == status)
        #expect(!response.isSuccess)
        #expect(response.text == "status \(status)")
    }

    @Test("a redirect without a Location is an answer too", arguments: [301, 302])
    func redirectWithoutLocation(status: Int) throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        // FoundationNetworking drops such a response's body; the status still comes back.
        #expect(try fetch(HTTPGetRequest(url: server.url("/status/\(status)"))).status == status)
    }

    @Test("redirects are followed")
    func redirect() throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let response = try fetch(HTTPGetRequest(url: server.url("/redirect")))
        #expect(response.status == 200)
        #expect(response.text == "hello from stub")
    }

    @Test("request headers are sent")
    func requestHeaders() throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let response = try fetch(HTTPGetRequest(url: server.url("/headers"),
                                                headers: ["Accept": "application/xml", "X-Den-Module": "main"]))
        let echoed = try JSONDecoder().decode([String: String].self, from: response.body)
        #expect(echoed["accept"] == "application/xml")
        #expect(echoed["x-den-module"] == "main")
    }

    @Test("serves the rates file given to the stub server")
    func ratesFile() throws {
        let folder = try ServiceTestSupport.temporaryDirectory("den-http")
        defer { ServiceTestSupport.remove(folder) }
        let xml = #"<?xml version="1.0" encoding="UTF-8"?><Cube><Cube time="2024-05-17"><Cube currency="USD" rate="1.0866"/></Cube></Cube>"#
        let file = folder.appendingPathComponent("eurofxref-daily.xml")
        try Data(xml.utf8).write(to: file)
        let server = try StubHTTPServer(ecbFile: file)
        defer { server.stop() }
        let response = try fetch(HTTPGetRequest(url: server.url("/ecb.xml")))
        #expect(response.status == 200)
        #expect(response.body == Data(xml.utf8))
        #expect(response.headers["content-type"] == "application/xml")
    }

    @Test("a server slower than the timeout fails, naming the URL and the timeout")
    func timeout() throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let url = server.url("/slow?ms=5000")
        let started = ContinuousClock.now
        let failure = #expect(throws: ServiceFailure.self) {
            try fetch(HTTPGetRequest(url: url, timeoutMilliseconds: 300))
        }
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(failure?.kind == .unavailable)
        #expect(failure?.message.contains(url) == true)
        #expect(failure?.message.contains("timed out after 300 ms") == true, "\(failure?.message ?? "")")
        #expect(failure?.message.contains("timeout_ms") == true)
    }

    @Test("the timeout bounds the whole exchange, even while bytes keep trickling in")
    func tricklingBody() throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let started = ContinuousClock.now
        let failure = #expect(throws: ServiceFailure.self) {
            try fetch(HTTPGetRequest(url: server.url("/drip?ms=5000"), timeoutMilliseconds: 700))
        }
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(failure?.message.contains("timed out after 700 ms") == true, "\(failure?.message ?? "")")
    }

    @Test("a body larger than max_bytes is abandoned, naming the limit", arguments: ["/big", "/big-declared"])
    func sizeLimit(path: String) throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let url = server.url("\(path)?bytes=200000")
        let failure = #expect(throws: ServiceFailure.self) {
            try fetch(HTTPGetRequest(url: url, maxBytes: 10_000))
        }
        #expect(failure?.kind == .unavailable)
        #expect(failure?.message.contains(url) == true)
        #expect(failure?.message.contains("larger than 10000 bytes") == true, "\(failure?.message ?? "")")
        #expect(failure?.message.contains("max_bytes") == true)
        if path == "/big-declared" {
            #expect(failure?.message.contains("announced 200000 bytes") == true)
        }
    }

    @Test("a body of exactly max_bytes is accepted", arguments: ["/big", "/big-declared"])
    func sizeAtLimit(path: String) throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let response = try fetch(HTTPGetRequest(url: server.url("\(path)?bytes=10000"), maxBytes: 10_000))
        #expect(response.body.count == 10_000)
    }

    @Test("the default size limit allows a few megabytes")
    func defaultSizeLimit() throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let response = try fetch(HTTPGetRequest(url: server.url("/big?bytes=\(3 << 20)")))
        #expect(response.body.count == 3 << 20)
    }

    @Test("a closed port fails with connection refused, naming the URL")
    func connectionRefused() throws {
        let closed = try ClosedPort()
        defer { closed.close() }
        let url = "http://127.0.0.1:\(closed.port)/rates.xml"
        let failure = #expect(throws: ServiceFailure.self) {
            try fetch(HTTPGetRequest(url: url, timeoutMilliseconds: 5000))
        }
        #expect(failure?.kind == .unavailable)
        #expect(failure?.message.contains(url) == true)
        #expect(failure?.message.contains("connection refused") == true, "\(failure?.message ?? "")")
        #expect(failure?.message.contains("Check that the server is running") == true)
    }

    @Test("bad URLs are refused before any network access", arguments: [
        ("", "the url is empty"),
        ("not a url", "not an absolute URL"),
        ("/relative/path", "not an absolute URL"),
        ("ftp://127.0.0.1/file", "scheme 'ftp' is not supported"),
        ("file:///etc/passwd", "scheme 'file' is not supported"),
        ("http://", "names no host"),
    ])
    func badURL(url: String, expected: String) {
        let failure = #expect(throws: ServiceFailure.self) { try fetch(HTTPGetRequest(url: url)) }
        #expect(failure?.kind == .invalidArgument)
        #expect(failure?.message.contains("bad URL") == true)
        #expect(failure?.message.contains(expected) == true, "\(failure?.message ?? "")")
    }

    @Test("out-of-range limits and bad headers are refused", arguments: [
        (HTTPGetRequest(url: "http://127.0.0.1/x", timeoutMilliseconds: 0), "timeout_ms must be between 1 and 60000"),
        (HTTPGetRequest(url: "http://127.0.0.1/x", timeoutMilliseconds: 60_001), "timeout_ms must be between 1 and 60000"),
        (HTTPGetRequest(url: "http://127.0.0.1/x", maxBytes: 0), "max_bytes must be between 1 and 20971520"),
        (HTTPGetRequest(url: "http://127.0.0.1/x", maxBytes: (20 << 20) + 1), "max_bytes must be between 1 and 20971520"),
        (HTTPGetRequest(url: "http://127.0.0.1/x", headers: ["Bad Name": "1"]), "header name 'Bad Name' is not valid"),
        (HTTPGetRequest(url: "http://127.0.0.1/x", headers: ["X-A": "1\r\nX-B: 2"]), "line break"),
    ])
    func badParameters(request: HTTPGetRequest, expected: String) {
        let failure = #expect(throws: ServiceFailure.self) { try fetch(request) }
        #expect(failure?.kind == .invalidArgument)
        #expect(failure?.message.contains(expected) == true, "\(failure?.message ?? "")")
    }

    @Test("malformed request JSON is refused")
    func malformedJSON() {
        for json in ["{", "{}", #"{"url":42}"#, #"{"url":"http://x","timeout_ms":"soon"}"#] {
            let failure = #expect(throws: ServiceFailure.self) { try ServiceTestSupport.call(http, "http.get", json) }
            #expect(failure?.kind == .invalidArgument)
            #expect(failure?.message.hasPrefix("http.get: malformed request") == true, "\(failure?.message ?? "")")
        }
    }

    @Test("concurrent fetches from several threads each get their own answer")
    func concurrentFetches() throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let http = http
        let urls = (0..<8).map { server.url("/status/\(200 + $0)") }
        let statuses = Statuses()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let response = try? http.get(HTTPGetRequest(url: urls[index], timeoutMilliseconds: 10_000))
            statuses.record(index, response?.status)
        }
        #expect(statuses.values == (0..<8).map { 200 + $0 })
    }
}

private final class Statuses: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Int: Int] = [:]
    func record(_ index: Int, _ status: Int?) { lock.withLock { recorded[index] = status ?? -1 } }
    var values: [Int] { lock.withLock { (0..<recorded.count).map { recorded[$0] ?? -1 } } }
}
