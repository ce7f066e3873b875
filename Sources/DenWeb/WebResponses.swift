import Foundation
import DenWebPages
import Hummingbird

/// The responses den serve sends, each with the headers it needs. `SecurityHeaders` adds the
/// ones every response carries.
enum WebResponses {
    static func html(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        body(ByteBuffer(string: html), contentType: "text/html; charset=utf-8", status: status)
    }

    static func html(utf8: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        body(ByteBuffer(bytes: utf8), contentType: "text/html; charset=utf-8", status: status)
    }

    /// `text` as a JSON string literal, quotes and all.
    static func jsonString(_ text: String) -> String {
        let data = (try? JSONEncoder().encode([text])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    static func json(_ json: String, status: HTTPResponse.Status = .ok) -> Response {
        body(json, contentType: "application/json", status: status)
    }

    /// A page saying what went wrong and what to do.
    static func error(_ status: HTTPResponse.Status, title: String, message: String, hint: String?) -> Response {
        html(PageRenderer.errorPage(status: status.code, title: title, message: message, hint: hint), status: status)
    }

    /// 303 See Other: after a post the browser fetches the resulting screen with GET, so
    /// reloading never sends the form again.
    static func redirect(toRoute route: String) -> Response {
        var response = Response(status: .seeOther)
        response.headers[.location] = RouteLocation.path(for: route)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// A stylesheet or script compiled into den: cached for long by the browser.
    static func asset(_ text: String, contentType: String) -> Response {
        var response = body(text, contentType: contentType, status: .ok)
        response.headers[.cacheControl] = "public, max-age=31536000"
        return response
    }

    private static func body(_ text: String, contentType: String, status: HTTPResponse.Status) -> Response {
        body(ByteBuffer(string: text), contentType: contentType, status: status)
    }

    private static func body(_ buffer: ByteBuffer, contentType: String, status: HTTPResponse.Status) -> Response {
        var response = Response(status: status, body: ResponseBody(byteBuffer: buffer))
        response.headers[.contentType] = contentType
        response.headers[.contentLength] = String(buffer.readableBytes)
        // Pages show per-user data: no cache may keep them (assets override this).
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

/// The headers on every response: no script, style or frame from anywhere but den itself (and
/// no inline script at all), no MIME sniffing, no referrer leaking routes to other sites.
enum SecurityHeaders {
    static let contentSecurityPolicy = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    static func apply(to response: inout Response) {
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.xFrameOptions] = "DENY"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
    }
}

extension HTTPFields.Element.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let xForwardedProto = Self("X-Forwarded-Proto")!
    static let xForwardedFor = Self("X-Forwarded-For")!
}
