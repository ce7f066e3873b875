import Hummingbird

/// The monolith's HTML, written as an app's own templates usually are: string building with
/// every runtime string escaped. The markup follows den's pages (head, header, a form holding
/// the fields and buttons, the list, links, footer) so that both answer pages of the same size.
struct Page {
    private(set) var html = ""

    init(title: String) {
        html.reserveCapacity(16_384)
        html += "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"UTF-8\">"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"color-scheme\" content=\"light dark\">"
        html += "<title>"
        text(title)
        html += " · Jogs</title><link rel=\"stylesheet\" href=\"/assets/app.css\"></head>"
        html += "<body><header class=\"app-header\"><a class=\"app-home\" href=\"/jogs\">Jogs</a></header><main id=\"main\"><h1>"
        text(title)
        html += "</h1>"
    }

    mutating func raw(_ markup: String) { html += markup }

    /// Text with `& < > " '` escaped (also safe inside a double-quoted attribute).
    mutating func text(_ value: String) {
        var needs = false
        for byte in value.utf8 where byte == 38 || byte == 60 || byte == 62 || byte == 34 || byte == 39 { needs = true; break }
        guard needs else { html += value; return }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": html += "&amp;"
            case "<": html += "&lt;"
            case ">": html += "&gt;"
            case "\"": html += "&quot;"
            case "'": html += "&#39;"
            default: html.unicodeScalars.append(scalar)
            }
        }
    }

    mutating func formStart(action: String, csrf: String) {
        html += "<form method=\"post\" action=\""
        text(action)
        html += "\" class=\"app-form\"><input type=\"hidden\" name=\"_csrf\" value=\""
        text(csrf)
        html += "\">"
    }

    mutating func field(_ name: String, label: String, value: String, placeholder: String, error: String?, type: String = "text") {
        html += "<div class=\"app-field\"><label for=\"field-\(name)\">"
        text(label)
        html += "</label><input type=\"\(type)\" id=\"field-\(name)\" name=\"\(name)\" value=\""
        if type != "password" { text(value) }
        html += "\" placeholder=\""
        text(placeholder)
        html += "\""
        if let error {
            html += " aria-invalid=\"true\" aria-describedby=\"error-\(name)\"><p class=\"app-error\" id=\"error-\(name)\">"
            text(error)
            html += "</p></div>"
        } else {
            html += "></div>"
        }
    }

    mutating func button(_ value: String, label: String, primary: Bool) {
        html += "<button type=\"submit\" name=\"_action\" value=\"\(value)\" class=\"app-button \(primary ? "app-primary" : "app-secondary")\">"
        text(label)
        html += "</button>"
    }

    mutating func banner(_ message: String, error: Bool) {
        html += error ? "<div class=\"app-banner app-error\" role=\"alert\"><strong>Error:</strong> " : "<div class=\"app-banner app-success\" role=\"status\"><strong>Done:</strong> "
        text(message)
        html += "</div>"
    }

    mutating func link(_ label: String, href: String) {
        html += "<p class=\"app-link\"><a href=\""
        text(href)
        html += "\">"
        text(label)
        html += "</a></p>"
    }

    func response(status: HTTPResponse.Status = .ok) -> Response {
        var page = self
        page.html += "</main><footer class=\"app-footer\"><small>Jogs, a monolith</small></footer></body></html>"
        return Responses.html(page.html, status: status)
    }
}

enum Responses {
    static let contentSecurityPolicy = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    static func html(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        let buffer = ByteBuffer(string: html)
        var response = Response(status: status, body: ResponseBody(byteBuffer: buffer))
        response.headers[.contentType] = "text/html; charset=utf-8"
        response.headers[.contentLength] = String(buffer.readableBytes)
        response.headers[.cacheControl] = "no-store"
        secure(&response)
        return response
    }

    static func redirect(_ location: String) -> Response {
        var response = Response(status: .seeOther)
        response.headers[.location] = location
        response.headers[.cacheControl] = "no-store"
        secure(&response)
        return response
    }

    /// The headers den puts on every response.
    static func secure(_ response: inout Response) {
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPFields.Element.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPFields.Element.Name("X-Frame-Options")!] = "DENY"
    }

    static func error(_ status: HTTPResponse.Status, _ title: String, _ message: String) -> Response {
        var page = Page(title: title)
        page.raw("<p>")
        page.text(message)
        page.raw("</p>")
        page.link("All jogs", href: "/jogs")
        return page.response(status: status)
    }

    static let stylesheet = """
        body{font-family:system-ui,sans-serif;margin:0;line-height:1.45}
        .app-header{padding:.5rem 1rem;border-bottom:1px solid #ccc}main{max-width:44rem;margin:0 auto;padding:1rem}
        .app-field{margin:.5rem 0}.app-field label{display:block;font-weight:600}.app-field input{width:100%;padding:.4rem}
        .app-button{margin:.5rem .5rem .5rem 0;padding:.4rem .9rem}.app-primary{font-weight:700}
        .app-error{color:#b00020}.app-banner{padding:.5rem;border:1px solid}ul{padding-left:1.2rem}
        .app-footer{padding:1rem;color:#666}
        """
}
