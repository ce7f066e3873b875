import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A rendered page read back as a tree, so tests ask "which elements, which attributes, which
/// text" instead of matching strings. The pages are well-formed XML by design (every element
/// closed, every attribute quoted), so a page that a hostile string broke does not even parse.
struct PageTree {
    let html: String
    private let document: XMLDocument

    struct NotWellFormed: Error, CustomStringConvertible {
        var description: String
    }

    init(_ html: String) throws {
        self.html = html
        // XMLDocument recovers from broken markup; XMLParser refuses it, so it checks first.
        let parser = XMLParser(data: Data(html.utf8))
        guard parser.parse() else {
            throw NotWellFormed(description: "\(parser.parserError.map { "\($0)" } ?? "parse error") in:\n\(html)")
        }
        document = try XMLDocument(xmlString: html, options: [])
    }

    /// Elements matching an XPath, e.g. `//input[@type='password']`.
    func elements(_ xpath: String) throws -> [XMLElement] {
        try document.nodes(forXPath: xpath).compactMap { $0 as? XMLElement }
    }

    /// Elements matching an XPath relative to `element`, e.g. `.//input`.
    func elements(_ xpath: String, under element: XMLElement) throws -> [XMLElement] {
        try element.nodes(forXPath: xpath).compactMap { $0 as? XMLElement }
    }

    func element(_ xpath: String) throws -> XMLElement? {
        try elements(xpath).first
    }

    /// The text of every element matching `xpath`.
    func texts(_ xpath: String) throws -> [String] {
        try elements(xpath).map { $0.stringValue ?? "" }
    }

    /// Every attribute of every element: (element name, attribute name, value).
    func allAttributes() throws -> [(element: String, name: String, value: String)] {
        try elements("//*").flatMap { element in
            (element.attributes ?? []).map { (element.name ?? "", $0.name ?? "", $0.stringValue ?? "") }
        }
    }
}

extension XMLElement {
    subscript(attribute name: String) -> String? {
        attribute(forName: name)?.stringValue
    }
}
