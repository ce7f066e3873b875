@testable import DenKit
import Foundation
import Testing

@Suite("HTTP messages and stub fetcher")
struct HTTPClientKitSpec {
    @Test("the request uses timeout_ms and max_bytes and leaves out what is not set")
    func requestJSON() throws {
        let full = HTTPGetRequest(url: "https://example.com/r.xml", timeoutMilliseconds: 2000, maxBytes: 1000,
                                  headers: ["Accept": "text/xml"])
        #expect(String(decoding: try WireFormat.encode(full), as: UTF8.self)
                == #"{"headers":{"Accept":"text/xml"},"max_bytes":1000,"timeout_ms":2000,"url":"https://example.com/r.xml"}"#)
        #expect(String(decoding: try WireFormat.encode(HTTPGetRequest(url: "http://x/")), as: UTF8.self)
                == #"{"url":"http://x/"}"#)
        #expect(try WireFormat.decode(HTTPGetRequest.self, from: Data(#"{"url":"http://x/","timeout_ms":5}"#.utf8))
                == HTTPGetRequest(url: "http://x/", timeoutMilliseconds: 5))
    }

    @Test("the response body travels as base64")
    func responseJSON() throws {
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data("hi".utf8))
        let text = String(decoding: try WireFormat.encode(response), as: UTF8.self)
        #expect(text == #"{"body":"aGk=","headers":{"content-type":"text/plain"},"status":200}"#)
        let decoded = try WireFormat.decode(HTTPResponse.self, from: Data(text.utf8))
        #expect(decoded == response)
        #expect(decoded.text == "hi")
        #expect(decoded.header("CONTENT-TYPE") == "text/plain")
        #expect(decoded.isSuccess)
        #expect(!HTTPResponse(status: 503).isSuccess)
    }

    @Test("durations become whole milliseconds, rounded up")
    func durations() {
        #expect(Duration.seconds(10).wholeMillisecondsRoundingUp == 10_000)
        #expect(Duration.milliseconds(250).wholeMillisecondsRoundingUp == 250)
        #expect(Duration.microseconds(1500).wholeMillisecondsRoundingUp == 2)
        #expect(Duration.nanoseconds(1).wholeMillisecondsRoundingUp == 1)
        #expect(Duration.zero.wholeMillisecondsRoundingUp == 0)
    }

    @Test("the stub fetcher sees the request a module would send")
    func stub() throws {
        let fetcher: any HTTPFetching = HTTPFetcherStub { request in
            #expect(request.url == "https://rates.example/daily.xml")
            #expect(request.timeoutMilliseconds == 1500)
            #expect(request.maxBytes == nil)
            return HTTPResponse(status: 200, body: Data("<Cube/>".utf8))
        }
        #expect(try fetcher.get("https://rates.example/daily.xml", timeout: .milliseconds(1500)).text == "<Cube/>")
    }

    @Test("without a host, a fetch fails with a clear error")
    func noHost() {
        let error = #expect(throws: HostServiceError.self) { try HostHTTPClient(.unavailable).get("http://x/") }
        #expect(error?.service == "http.get")
    }
}
