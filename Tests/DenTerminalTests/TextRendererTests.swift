@testable import DenTerminal
@testable import DenTerminalText
import DenKit
import Foundation
import Testing

@Suite("TextRenderer")
struct TextRendererTests {
    let renderer = TextRenderer()

    private func lines(_ elements: [Element], title: String = "T", values: [String: String] = [:]) -> [String] {
        renderer.render(Screen(title: title, elements: elements), values: values).text
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test("the title comes first, underlined to its length")
    func title() {
        let text = lines([], title: "Convert currency")

        #expect(text == ["Convert currency", String(repeating: "=", count: 16)])
    }

    @Test("a heading is drawn in capitals after a blank line")
    func heading() {
        #expect(lines([.heading("Loaded modules")]).suffix(2) == ["", "LOADED MODULES"])
    }

    @Test("text styles: body as is, caption in parentheses, emphasis between asterisks", arguments: [
        (TextStyle.body, "Hello there"),
        (.caption, "(Hello there)"),
        (.emphasis, "*Hello there*"),
    ])
    func textStyles(style: TextStyle, expected: String) {
        #expect(lines([.text("Hello there", style: style)]).last == expected)
    }

    @Test("long body text wraps at word boundaries within the width")
    func wrapping() {
        let renderer = TextRenderer(width: 30)
        let words = Array(repeating: "lorem ipsum", count: 12).joined(separator: " ")

        let text = renderer.render(Screen(title: "T", elements: [.text(words)])).text.split(separator: "\n").dropFirst(2)

        #expect(text.count > 1)
        #expect(text.allSatisfy { $0.count <= 30 })
        #expect(text.joined(separator: " ") == words)
    }

    @Test("a field shows label, id and value")
    func field() {
        #expect(lines([.field(Field(id: "amount", label: "Amount", value: "12.5", kind: .number))]).last
                == "Amount [amount]: 12.5")
    }

    @Test("an empty field shows its placeholder")
    func placeholder() {
        let drawn = lines([.field(Field(id: "amount", label: "Amount", placeholder: "0.00"))]).last ?? ""

        #expect(drawn.hasPrefix("Amount [amount]:"))
        #expect(drawn.contains("(0.00)"))
    }

    @Test("a password is masked with one star per character and never shown")
    func passwordMasking() {
        let rendered = renderer.render(Screen(title: "Login", elements: [
            .field(Field(id: "password", label: "Password", value: "hunter2", kind: .password)),
        ]))

        #expect(rendered.text.hasSuffix("Password [password]: *******"))
        #expect(!rendered.text.contains("hunter2"))
    }

    @Test("an edited password value is masked too")
    func editedPasswordMasking() {
        let text = lines([.field(Field(id: "password", label: "Password", kind: .password))], values: ["password": "abc"])

        #expect(text.last == "Password [password]: ***")
    }

    @Test("a choice field lists its options")
    func choiceOptions() {
        let text = lines([.field(Field(id: "from", label: "From", value: "EUR", kind: .choice, options: ["EUR", "USD", "JPY"]))])

        #expect(text.suffix(2) == ["From [from]: EUR", "    one of: EUR USD JPY"])
    }

    @Test("a field error is shown under the field")
    func fieldError() {
        let text = lines([.field(Field(id: "amount", label: "Amount", value: "1x", error: "only digits"))])

        #expect(text.suffix(2) == ["Amount [amount]: 1x", "    ! only digits"])
    }

    @Test("edited values override the screen's field values")
    func editedValues() {
        let text = lines([.field(Field(id: "amount", label: "Amount", value: "1"))], values: ["amount": "250"])

        #expect(text.last == "Amount [amount]: 250")
    }

    @Test("buttons, links and linked list items are numbered in reading order; plain items are not")
    func numbering() {
        let rendered = renderer.render(Screen(title: "T", elements: [
            .button(Button(id: "save", label: "Save")),
            .link(Link(label: "About", route: "about")),
            .list(ItemList(title: "Runs", items: [
                .init(title: "5 km", detail: "Monday", route: "jogs/1"),
                .init(title: "Unlinked"),
                .init(title: "10 km", route: "jogs/2"),
            ])),
            .button(Button(id: "close", label: "Close")),
        ]))
        let text = rendered.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }

        #expect(rendered.actions == [
            .button(id: "save", label: "Save"),
            .route("about", label: "About"),
            .route("jogs/1", label: "5 km"),
            .route("jogs/2", label: "10 km"),
            .button(id: "close", label: "Close"),
        ])
        #expect(text.contains("[1] Save"))
        #expect(text.contains("[2] About -> about"))
        #expect(text.contains("Runs:"))
        #expect(text.contains("[3] 5 km — Monday"))
        #expect(text.contains("- Unlinked"))
        #expect(text.contains("[4] 10 km"))
        #expect(text.contains("[5] Close"))
    }

    @Test("list items are indented under the list title, like its empty text")
    func listIndentation() {
        let text = lines([.list(ItemList(title: "Runs", items: [.init(title: "5 km", route: "jogs/1"), .init(title: "Unlinked")]))])

        #expect(Array(text.suffix(3)) == ["Runs:", "  [1] 5 km", "  - Unlinked"])
    }

    @Test("a long list item wraps within the width, its continuation lines indented deeper")
    func listItemWrapping() {
        let renderer = TextRenderer(width: 30)
        let title = Array(repeating: "word", count: 20).joined(separator: " ")

        let text = renderer.render(Screen(title: "T", elements: [.list(ItemList(items: [.init(title: title)]))])).text
        let itemLines = text.split(separator: "\n").dropFirst(2).map(String.init)

        #expect(itemLines.count > 1)
        #expect(itemLines.allSatisfy { $0.count <= 30 }, "\(itemLines)")
        #expect(itemLines.dropFirst().allSatisfy { $0.hasPrefix("    ") })
    }

    @Test("a plain list row reads as the wrapped '- title — detail' would, at and around the width and with odd spacing",
          arguments: [
              ("about 1.0.0", "About the app"), ("a", ""), ("", "detail only"), ("", ""), (" lead", "x"), ("trail ", "x"),
              ("two  spaces", "x"), ("x", " lead"), ("x", "trail "), ("x", "two  spaces"), ("line\nbreak", "x"),
              ("café 1.0", "résumé · generation 2, not loaded yet"), ("bench-m12 1.0.0", "bench · generation 1, not loaded yet"),
              (String(repeating: "w", count: 13), "1234567"), (String(repeating: "w", count: 14), "1234567"),
              (String(repeating: "w", count: 26), ""), (String(repeating: "w", count: 27), ""),
          ])
    func plainRowMatchesWrapping(title: String, detail: String) {
        // Width 30: the row "  - " + 13 + " — " + 7 is exactly 29 bytes, 14 makes it 30, one more wraps.
        for width in [29, 30, 31] {
            let renderer = TextRenderer(width: width)
            let rendered = renderer.render(Screen(title: "T", elements: [.list(ItemList(items: [.init(title: title, detail: detail)]))])).text
            let rows = rendered.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(3).map(String.init)
            let text = "- " + TerminalText.sanitize(title) + (detail.isEmpty ? "" : " — " + TerminalText.sanitize(detail))
            #expect(rows == TerminalText.wrap(text, width: width, indent: "    ", firstIndent: "  "), "width \(width)")
        }
    }

    @Test("an empty list shows its empty text")
    func emptyList() {
        #expect(lines([.list(ItemList(title: "Runs", items: [], emptyText: "No runs yet."))]).suffix(2)
                == ["Runs:", "  No runs yet."])
    }

    @Test("a table aligns its columns under a dashed rule; short rows are padded")
    func table() {
        let text = lines([.table(Table(columns: ["Code", "Rate", "Name"],
                                       rows: [["USD", "1.0842", "US dollar"], ["JPY", "162.5"]]))])

        #expect(Array(text.suffix(4)) == [
            "Code  Rate    Name",
            "----  ------  ---------",
            "USD   1.0842  US dollar",
            "JPY   162.5",
        ])
    }

    @Test("banners are marked by kind", arguments: [
        (Banner.Kind.info, "[i] Note"),
        (.success, "[ok] Note"),
        (.warning, "[!] Note"),
        (.error, "[ERROR] Note"),
    ])
    func banners(kind: Banner.Kind, expected: String) {
        #expect(lines([.banner(Banner(kind, "Note"))]).last == expected)
    }

    @Test("an element this terminal does not know becomes a placeholder naming its type")
    func unsupported() {
        #expect(lines([.unsupported(type: "chart")]).last == "(this screen has a 'chart' element this terminal cannot draw)")
    }

    @Test("no module string can put an escape or control character on the terminal")
    func everythingIsSanitized() {
        let evil = "x\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{202E}"
        let rendered = renderer.render(Screen(title: evil, elements: [
            .heading(evil), .text(evil), .text(evil, style: .caption),
            .field(Field(id: evil, label: evil, value: evil, kind: .choice, options: [evil], placeholder: evil, error: evil)),
            .field(Field(id: "p", label: "P", placeholder: evil)),
            .button(Button(id: "b", label: evil)), .link(Link(label: evil, route: evil)),
            .list(ItemList(title: evil, items: [.init(title: evil, detail: evil, route: "r")], emptyText: evil)),
            .list(ItemList(title: "empty", items: [], emptyText: evil)),
            .table(Table(columns: [evil], rows: [[evil]])),
            .banner(Banner(.error, evil)), .unsupported(type: evil),
        ]))

        let forbidden = rendered.text.unicodeScalars.filter { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
        #expect(forbidden.isEmpty, "leaked: \(forbidden.map { String($0.value, radix: 16) })")
        #expect(rendered.text.contains("^[]0;pwned^G"))
    }
}

@Suite("TerminalText.sanitize")
struct TerminalTextTests {
    @Test("control characters become visible caret forms", arguments: [
        ("\u{1B}[31mred", "^[[31mred"),
        ("bell\u{07}", "bell^G"),
        ("carriage\rreturn", "carriage^Mreturn"),
        ("nul\u{00}", "nul^@"),
        ("back\u{08}space", "back^Hspace"),
        ("del\u{7F}", "del^?"),
        ("\u{1B}]0;title\u{07}", "^[]0;title^G"),
    ])
    func controls(input: String, expected: String) {
        #expect(TerminalText.sanitize(input) == expected)
    }

    @Test("C1 controls and bidi overrides become U+FFFD", arguments: [
        "\u{9B}", "\u{85}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
        "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
    ])
    func replaced(input: String) {
        #expect(TerminalText.sanitize("a\(input)b") == "a\u{FFFD}b")
    }

    @Test("line breaks survive and tabs become four spaces")
    func whitespace() {
        #expect(TerminalText.sanitize("one\ntwo\tthree") == "one\ntwo    three")
    }

    @Test("ordinary text, including non-ASCII, is unchanged")
    func ordinary() {
        let text = "Grüße – 日本語 😀 [1] ^caret (ok)"
        #expect(TerminalText.sanitize(text) == text)
    }

    @Test("no C0, DEL or C1 control except newline survives")
    func exhaustive() {
        let every = String(String.UnicodeScalarView((0..<0xA0).compactMap(Unicode.Scalar.init)))

        let clean = TerminalText.sanitize(every)

        #expect(clean.unicodeScalars.allSatisfy { $0 == "\n" || ($0.value >= 0x20 && $0.value != 0x7F && !(0x80..<0xA0).contains($0.value)) })
    }
}
