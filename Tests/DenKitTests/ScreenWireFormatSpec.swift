@testable import DenKit
import Foundation
import Testing

/// JSON helpers for the wire-format specs.
enum WireJSON {
    static func text<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try WireFormat.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try WireFormat.decode(type, from: Data(json.utf8))
    }

    static func roundTrip<T: Codable>(_ value: T) throws -> T {
        try WireFormat.decode(T.self, from: try WireFormat.encode(value))
    }
}

@Suite("Screen documents on the wire")
struct ScreenWireFormatSpec {
    static let everyElementKind: [Element] = [
        .heading("Den"),
        .text("Plain words", style: .body),
        .text("Small print", style: .caption),
        .text("Look here", style: .emphasis),
        .field(Field(id: "name", label: "Name")),
        .field(Field(id: "amount", label: "Amount", value: "12.5", kind: .number, placeholder: "0.00",
                     error: "only digits and one decimal separator")),
        .field(Field(id: "pin", label: "PIN", value: "1234", kind: .password)),
        .field(Field(id: "from", label: "From", value: "EUR", kind: .choice, options: ["EUR", "USD", "JPY"])),
        .button(Button(id: "save", label: "Save", role: .primary)),
        .button(Button(id: "cancel", label: "Cancel")),
        .button(Button(id: "delete", label: "Delete", role: .destructive)),
        .link(Link(label: "About", route: "about")),
        .list(ItemList(title: "Runs", items: [.init(title: "5 km", detail: "Monday", route: "jogs/1"),
                                              .init(title: "Unlinked")], emptyText: "No runs")),
        .list(ItemList(items: [])),
        .table(Table(columns: ["Code", "Rate"], rows: [["USD", "1.08"], ["JPY", "162.5"]])),
        .banner(Banner(.info, "FYI")),
        .banner(Banner(.success, "Saved")),
        .banner(Banner(.warning, "Careful")),
        .banner(Banner(.error, "Broken")),
        .unsupported(type: "chart"),
    ]

    @Test("every element kind survives an encode/decode round trip", arguments: everyElementKind)
    func elementRoundTrip(element: Element) throws {
        #expect(try WireJSON.roundTrip(element) == element)
    }

    @Test("a screen with every element kind survives a round trip, version included")
    func screenRoundTrip() throws {
        let screen = Screen(title: "Everything", elements: Self.everyElementKind)

        let decoded = try WireJSON.roundTrip(screen)

        #expect(decoded == screen)
        #expect(decoded.v == Screen.currentVersion)
    }

    @Test("elements are flat objects tagged by type", arguments: [
        (Element.heading("Hi"), #"{"text":"Hi","type":"heading"}"#),
        (.text("Small", style: .caption), #"{"style":"caption","text":"Small","type":"text"}"#),
        (.button(Button(id: "ok", label: "OK", role: .primary)), #"{"id":"ok","label":"OK","role":"primary","type":"button"}"#),
        (.link(Link(label: "Jog 42", route: "jogs/42")), #"{"label":"Jog 42","route":"jogs/42","type":"link"}"#),
        (.banner(Banner(.error, "Nope")), #"{"kind":"error","text":"Nope","type":"banner"}"#),
        (.table(Table(columns: ["A"], rows: [["1"]])), #"{"columns":["A"],"rows":[["1"]],"type":"table"}"#),
        (.field(Field(id: "q", label: "Query", value: "x")),
         #"{"id":"q","kind":"text","label":"Query","options":[],"type":"field","value":"x"}"#),
        (.unsupported(type: "chart"), #"{"type":"chart"}"#),
    ])
    func elementShape(element: Element, json: String) throws {
        #expect(try WireJSON.text(element) == json)
    }

    @Test("a screen document is {elements, title, v}")
    func screenShape() throws {
        let screen = Screen(title: "T", elements: [.heading("H")])

        #expect(try WireJSON.text(screen) == #"{"elements":[{"text":"H","type":"heading"}],"title":"T","v":1}"#)
    }

    @Test("a text element without a style decodes as body text")
    func textDefaultsToBody() throws {
        #expect(try WireJSON.decode(Element.self, #"{"type":"text","text":"hello"}"#) == .text("hello", style: .body))
    }

    @Test("an unknown element type decodes as .unsupported and the rest of the screen still decodes")
    func unknownElementType() throws {
        let json = #"""
        {"v":1,"title":"Mixed","elements":[
          {"type":"heading","text":"Before"},
          {"type":"chart","points":[1,2,3],"text":42},
          {"type":"text","text":"After"}
        ]}
        """#

        let screen = try WireJSON.decode(Screen.self, json)

        #expect(screen.title == "Mixed")
        #expect(screen.elements == [.heading("Before"), .unsupported(type: "chart"), .text("After")])
    }

    @Test("a known element type with a missing key fails to decode")
    func knownTypeMissingKey() {
        #expect(throws: DecodingError.self) {
            try WireJSON.decode(Element.self, #"{"type":"button","label":"No id"}"#)
        }
    }

    @Test("Screen.fields lists the field elements in order and nothing else")
    func screenFields() {
        let screen = Screen(title: "Form", elements: Self.everyElementKind)

        #expect(screen.fields.map(\.id) == ["name", "amount", "pin", "from"])
    }
}
