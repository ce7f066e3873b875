import DenKit

// A STAND-IN for the DenWebPages target built on branch issue9-pages (Plot). It has exactly the
// agreed signatures so DenWeb compiles and its tests run before the merge, which replaces this
// file with the real target. Its HTML is deliberately plain: every value is escaped.

public struct PageInput: Sendable {
    public var route: String; public var screen: Screen; public var notices: [String]; public var errors: [String]
    public var openURLs: [String]; public var backRoute: String?; public var csrfToken: String; public var moduleID: String?
    public init(route: String, screen: Screen, notices: [String], errors: [String], openURLs: [String], backRoute: String?, csrfToken: String, moduleID: String?) {
        self.route = route; self.screen = screen; self.notices = notices; self.errors = errors
        self.openURLs = openURLs; self.backRoute = backRoute; self.csrfToken = csrfToken; self.moduleID = moduleID
    }
}

public enum PageRenderer {
    public static func page(_ input: PageInput) -> String {
        "<!doctype html><html><head><title>\(escape(input.screen.title))</title></head><body>\(main(input))</body></html>"
    }

    public static func main(_ input: PageInput) -> String {
        var html = "<main id=\"den-main\"><h1>\(escape(input.screen.title))</h1>"
        for line in input.notices + input.errors { html += "<p>\(escape(line))</p>" }
        for url in input.openURLs { html += "<a href=\"\(escape(url))\">\(escape(url))</a>" }
        let hidden = "<input type=\"hidden\" name=\"\(FormNames.csrf)\" value=\"\(escape(input.csrfToken))\">"
            + "<input type=\"hidden\" name=\"\(FormNames.route)\" value=\"\(escape(input.route))\">"
        html += "<form method=\"post\" action=\"\(FormNames.actionPath)\">\(hidden)"
        for element in input.screen.elements {
            switch element {
            case .heading(let text), .text(let text, _): html += "<p>\(escape(text))</p>"
            case .banner(let banner): html += "<p>\(escape(banner.text))</p>"
            case .field(let field):
                html += "<label>\(escape(field.label)) <input name=\"\(escape(FormNames.field(field.id)))\" value=\"\(escape(field.value))\"></label>"
                if let error = field.error { html += "<p>\(escape(error))</p>" }
            case .button(let button):
                html += "<button name=\"\(FormNames.action)\" value=\"\(escape(button.id))\">\(escape(button.label))</button>"
            case .link(let link): html += "<a href=\"/\(escape(link.route))\">\(escape(link.label))</a>"
            case .list(let list): for item in list.items { html += "<p>\(escape(item.title))</p>" }
            case .table(let table): for row in table.rows { html += "<p>\(escape(row.joined(separator: " ")))</p>" }
            case .unsupported(let type): html += "<p>(\(escape(type)))</p>"
            }
        }
        html += "</form>"
        if input.backRoute != nil { html += "<form method=\"post\" action=\"\(FormNames.backPath)\">\(hidden)<button>Back</button></form>" }
        return html + "</main>"
    }

    public static func errorPage(status: Int, title: String, message: String, hint: String?) -> String {
        "<!doctype html><html><head><title>\(escape(title))</title></head><body><main id=\"den-main\"><h1>\(status) \(escape(title))</h1><p>\(escape(message))</p>\(hint.map { "<p>\(escape($0))</p>" } ?? "")</main></body></html>"
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}

public enum PageAssets {
    public static let stylesheet: String = "body { font-family: sans-serif; }\n"
    public static let script: String = "// live fields arrive with the real DenWebPages\n"
    public static let stylesheetPath = "/_assets/den.css", scriptPath = "/_assets/den.js"
}

public enum FormNames {
    public static let csrf = "_csrf", route = "_route", action = "_action", field = "_field"
    public static func field(_ id: String) -> String { "f." + id }
    public static let actionPath = "/_action"
    public static let changePath = "/_change"
    public static let backPath = "/_back"
}
