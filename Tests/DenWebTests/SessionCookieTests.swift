import HTTPTypes
import Hummingbird
import Testing
@testable import DenWeb

@Suite("Reading the session cookie")
struct SessionCookieTests {
    private func request(_ cookieHeaders: [String]) -> Request {
        var fields = HTTPFields()
        for header in cookieHeaders { fields.append(HTTPField(name: .cookie, value: header)) }
        return Request(head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/about", headerFields: fields),
                       body: RequestBody(buffer: ByteBuffer()))
    }

    @Test("finds den_session among other cookies, with or without spaces")
    func amongOthers() {
        #expect(SessionCookie.value(in: request(["a=1; den_session=abc; b=2"])) == "abc")
        #expect(SessionCookie.value(in: request(["a=1;den_session=abc"])) == "abc")
        #expect(SessionCookie.value(in: request(["den_session=abc"])) == "abc")
    }

    @Test("a cookie whose name only starts or ends like den_session is not it")
    func similarNames() {
        #expect(SessionCookie.value(in: request(["den_session2=x; my_den_session=y"])) == nil)
        #expect(SessionCookie.value(in: request(["den_session2=x; den_session=z"])) == "z")
    }

    @Test("the first of several Cookie headers that holds it wins; none gives nil")
    func severalHeaders() {
        #expect(SessionCookie.value(in: request(["a=1", "den_session=second"])) == "second")
        #expect(SessionCookie.value(in: request([])) == nil)
        #expect(SessionCookie.value(in: request(["den_session"])) == nil)
        #expect(SessionCookie.value(in: request(["den_session="])) == "")
    }

    @Test("a value with '=' in it is kept whole")
    func valueWithEquals() {
        #expect(SessionCookie.value(in: request(["den_session=a=b"])) == "a=b")
    }
}
