/// Writes a page in one pass into one string: HTML by construction. Element and attribute names
/// are this target's own constants (`HTMLTag`, `HTMLAttribute.Name`), and the only ways a string
/// gets in are escaping ones (`text`, attribute values; see `HTMLEscaping`), so nothing a module
/// sends can become markup. There is deliberately no way to write raw HTML.
///
/// It replaced Plot's node tree, which allocated a closure and a buffer per element and copied
/// each element's markup into its parent's: most of a page's cost (docs/WEB.md, "Pages").
struct HTMLWriter {
    /// UTF-8 bytes: appending bytes is cheaper than growing a String piece by piece.
    private var bytes: [UInt8] = []

    init(capacity: Int = 8 * 1024) {
        bytes.reserveCapacity(capacity)
    }

    var html: String { String(decoding: bytes, as: UTF8.self) }

    /// The page as UTF-8, for a response body (no String in between).
    var utf8: [UInt8] { bytes }

    mutating func doctype() {
        literal("<!DOCTYPE html>")
    }

    /// `<tag attributes…>content</tag>`.
    mutating func element(_ tag: HTMLTag, _ attributes: HTMLAttribute..., content: (inout HTMLWriter) -> Void) {
        element(tag, attributes, content: content)
    }

    mutating func element(_ tag: HTMLTag, _ attributes: [HTMLAttribute], content: (inout HTMLWriter) -> Void) {
        open(tag, attributes)
        content(&self)
        close(tag)
    }

    /// `<tag attributes…>text</tag>`, the text escaped.
    mutating func element(_ tag: HTMLTag, _ attributes: HTMLAttribute..., text: String) {
        open(tag, attributes)
        self.text(text)
        close(tag)
    }

    /// A void element, written self-closed (`<input …/>`) so the page stays well-formed XML.
    mutating func void(_ tag: HTMLTag, _ attributes: [HTMLAttribute]) {
        literal("<")
        markup(tag.rawValue)
        write(attributes)
        literal("/>")
    }

    mutating func void(_ tag: HTMLTag, _ attributes: HTMLAttribute...) {
        void(tag, attributes)
    }

    /// Text content: escaped, invisible and control characters made visible.
    mutating func text(_ text: String) {
        if !appendPlain(text, quotes: false) { markup(HTMLEscaping.text(text)) }
    }

    private mutating func open(_ tag: HTMLTag, _ attributes: [HTMLAttribute]) {
        literal("<")
        markup(tag.rawValue)
        write(attributes)
        literal(">")
    }

    private mutating func close(_ tag: HTMLTag) {
        literal("</")
        markup(tag.rawValue)
        literal(">")
    }

    private mutating func write(_ attributes: [HTMLAttribute]) {
        for attribute in attributes {
            literal(" ")
            markup(attribute.name.rawValue)
            literal("=\"")
            if !appendPlain(attribute.value, quotes: true) { markup(HTMLEscaping.attribute(attribute.value)) }
            literal("\"")
        }
    }

    /// Markup of this writer's own, or text that `HTMLEscaping` has escaped.
    private mutating func markup(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private mutating func literal(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `text` as it is when it is printable ASCII with nothing to escape (most text is),
    /// so it needs no escaped copy; false, appending nothing, when it needs `HTMLEscaping`.
    private mutating func appendPlain(_ text: String, quotes: Bool) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"): return false
                case UInt8(ascii: "\""), UInt8(ascii: "'"): if quotes { return false }
                case 0x20...0x7E, 0x09, 0x0A: continue
                default: return false
                }
            }
            bytes.append(contentsOf: utf8)
            return true
        }
    }
}

/// The elements pages use; a name not listed here cannot be written.
enum HTMLTag: String {
    case html, head, meta, title, link, script, body, header, main, footer
    case h1, h2, h3, p, span, strong, em, small, code, div, a
    case form, label, input, select, option, button
    case ul, li, table, thead, tbody, tr, th, td
}

/// One attribute; its value is escaped when written, so any string may go in.
struct HTMLAttribute {
    /// The attributes pages use (no event handlers: the page's only script is den.js).
    enum Name: String {
        case id, `class`, name, value, type, method, action, role, `for`, href, rel, target
        case src, `defer`, lang, charset, content, scope, selected, placeholder, inputmode
        case ariaInvalid = "aria-invalid"
        case ariaDescribedBy = "aria-describedby"
        case dataDenChange = "data-den-change"
        case dataLabel = "data-label"
    }

    var name: Name
    var value: String

    init(_ name: Name, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `class="…"`, for the page's own class names.
    static func classes(_ names: String...) -> HTMLAttribute {
        HTMLAttribute(.class, names.joined(separator: " "))
    }

    /// A boolean attribute, written `name="name"` (valid HTML, and well-formed XML for the tests).
    static func flag(_ name: Name) -> HTMLAttribute {
        HTMLAttribute(name, name.rawValue)
    }
}
