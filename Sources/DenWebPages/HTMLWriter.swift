/// Writes a page in one pass: HTML by construction. Element and attribute names are this
/// target's own constants (`HTMLTag`, `HTMLAttribute.Name`), text of the page's own is a
/// `StaticString` (which only a literal in this code can be), and every other string goes in
/// through `HTMLEscaping`, so nothing a module sends can become markup. There is deliberately no
/// way to write a runtime string unescaped.
///
/// It replaced Plot's node tree, which allocated a closure and a buffer per element and copied
/// each element's markup into its parent's: most of a page's cost (docs/WEB.md, "Pages").
struct HTMLWriter {
    private let bytes: PageBytes

    init(capacity: Int = 8 * 1024) {
        bytes = PageBytes(capacity: capacity)
    }

    var html: String { bytes.string }

    /// The page as UTF-8, for a response body (no String in between).
    var utf8: [UInt8] { bytes.array }

    func doctype() {
        literal("<!DOCTYPE html>")
    }

    /// `<tag attributes…>content</tag>`.
    func element(_ tag: HTMLTag, _ attributes: HTMLAttribute..., content: (inout HTMLWriter) -> Void) {
        element(tag, attributes, content: content)
    }

    func element(_ tag: HTMLTag, _ attributes: [HTMLAttribute], content: (inout HTMLWriter) -> Void) {
        open(tag, attributes)
        var writer = self
        content(&writer)
        close(tag)
    }

    /// `<tag attributes…>text</tag>`, the text escaped.
    func element(_ tag: HTMLTag, _ attributes: HTMLAttribute..., text: String) {
        open(tag, attributes)
        self.text(text)
        close(tag)
    }

    /// A void element, written self-closed (`<input …/>`) so the page stays well-formed XML.
    func void(_ tag: HTMLTag, _ attributes: [HTMLAttribute]) {
        literal("<")
        literal(tag.name)
        write(attributes)
        literal("/>")
    }

    func void(_ tag: HTMLTag, _ attributes: HTMLAttribute...) {
        void(tag, attributes)
    }

    /// Text content: escaped, invisible and control characters made visible.
    func text(_ text: String) {
        if !appendPlain(text, quotes: false) { escaped(HTMLEscaping.text(text)) }
    }

    /// Text of the page's own (a literal in this code): nothing to escape.
    func ownText(_ text: StaticString) {
        literal(text)
    }

    private func open(_ tag: HTMLTag, _ attributes: [HTMLAttribute]) {
        literal("<")
        literal(tag.name)
        write(attributes)
        literal(">")
    }

    private func close(_ tag: HTMLTag) {
        literal("</")
        literal(tag.name)
        literal(">")
    }

    private func write(_ attributes: [HTMLAttribute]) {
        for attribute in attributes {
            literal(" ")
            literal(attribute.name.name)
            literal("=\"")
            if !appendPlain(attribute.value, quotes: true) { escaped(HTMLEscaping.attribute(attribute.value)) }
            literal("\"")
        }
    }

    /// A string `HTMLEscaping` has escaped.
    private func escaped(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append($0) }
    }

    @inline(__always)
    private func literal(_ text: StaticString) {
        bytes.append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `text` as it is when it is printable ASCII with nothing to escape (most text is),
    /// so it needs no escaped copy; false, appending nothing, when it needs `HTMLEscaping`.
    private func appendPlain(_ text: String, quotes: Bool) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            // No early exit: a loop like this one compiles to a few vector instructions per 16
            // or 32 bytes.
            var special: UInt8 = 0
            if quotes {
                for byte in utf8 { special |= Self.special(byte) | Self.equals(byte, 0x22) | Self.equals(byte, 0x27) }
            } else {
                for byte in utf8 { special |= Self.special(byte) }
            }
            if special != 0 { return false }
            bytes.append(utf8)
            return true
        }
    }

    /// 1 for a byte that is not printable ASCII (tab and line feed excepted), or is `&`, `<` or
    /// `>`; else 0. Arithmetic rather than `||`, so the loops above have no branch.
    @inline(__always)
    private static func special(_ byte: UInt8) -> UInt8 {
        let outside: UInt8 = byte &- 0x20 > 0x5E ? 1 : 0 // below 0x20 or above 0x7E
        let allowed = equals(byte, 0x09) | equals(byte, 0x0A)
        return (outside & ~allowed) | equals(byte, 0x26) | equals(byte, 0x3C) | equals(byte, 0x3E)
    }

    @inline(__always)
    private static func equals(_ byte: UInt8, _ value: UInt8) -> UInt8 {
        byte == value ? 1 : 0
    }
}

/// The elements pages use; a name not listed here cannot be written.
enum HTMLTag {
    case html, head, meta, title, link, script, body, header, main, footer
    case h1, h2, h3, p, span, strong, em, small, code, div, a, nav
    case form, label, input, select, option, button
    case ul, li, table, thead, tbody, tr, th, td

    var name: StaticString {
        switch self {
        case .html: "html"
        case .head: "head"
        case .meta: "meta"
        case .title: "title"
        case .link: "link"
        case .script: "script"
        case .body: "body"
        case .header: "header"
        case .main: "main"
        case .footer: "footer"
        case .h1: "h1"
        case .h2: "h2"
        case .h3: "h3"
        case .p: "p"
        case .span: "span"
        case .strong: "strong"
        case .em: "em"
        case .small: "small"
        case .code: "code"
        case .div: "div"
        case .a: "a"
        case .nav: "nav"
        case .form: "form"
        case .label: "label"
        case .input: "input"
        case .select: "select"
        case .option: "option"
        case .button: "button"
        case .ul: "ul"
        case .li: "li"
        case .table: "table"
        case .thead: "thead"
        case .tbody: "tbody"
        case .tr: "tr"
        case .th: "th"
        case .td: "td"
        }
    }
}

/// One attribute; its value is escaped when written, so any string may go in.
struct HTMLAttribute {
    /// The attributes pages use (no event handlers: the page's only script is den.js).
    enum Name {
        case id, `class`, name, value, type, method, action, role, `for`, href, rel, target
        case src, `defer`, lang, charset, content, scope, selected, placeholder, inputmode
        case ariaInvalid, ariaDescribedBy, dataDenChange, dataDenModule, dataLabel
        case ariaLabel, ariaCurrent, ariaControls, title, autocomplete

        var name: StaticString {
            switch self {
            case .id: "id"
            case .class: "class"
            case .name: "name"
            case .value: "value"
            case .type: "type"
            case .method: "method"
            case .action: "action"
            case .role: "role"
            case .for: "for"
            case .href: "href"
            case .rel: "rel"
            case .target: "target"
            case .src: "src"
            case .defer: "defer"
            case .lang: "lang"
            case .charset: "charset"
            case .content: "content"
            case .scope: "scope"
            case .selected: "selected"
            case .placeholder: "placeholder"
            case .inputmode: "inputmode"
            case .ariaInvalid: "aria-invalid"
            case .ariaDescribedBy: "aria-describedby"
            case .dataDenChange: "data-den-change"
            case .dataDenModule: "data-den-module"
            case .dataLabel: "data-label"
            case .ariaLabel: "aria-label"
            case .ariaCurrent: "aria-current"
            case .ariaControls: "aria-controls"
            case .title: "title"
            case .autocomplete: "autocomplete"
            }
        }
    }

    var name: Name
    var value: String

    init(_ name: Name, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `class="…"`, for the page's own class names (space-separated).
    static func classes(_ names: String) -> HTMLAttribute {
        HTMLAttribute(.class, names)
    }

    /// A boolean attribute, written `name="name"` (valid HTML, and well-formed XML for the tests).
    static func flag(_ name: Name) -> HTMLAttribute {
        HTMLAttribute(name, name.name.description)
    }
}
