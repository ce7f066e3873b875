import DenKit
@testable import DenTerminal
@testable import DenTerminalText
import Testing

@Suite("Choice fields in the terminal")
struct TextRendererChoiceTests {
    @Test("two choice fields with the same options list them once")
    func sharedOptions() {
        let options = ["EUR", "JPY", "USD"]
        let text = TextRenderer().render(Screen(title: "Convert", elements: [
            .field(Field(id: "from", label: "From", value: "USD", kind: .choice, options: options)),
            .field(Field(id: "to", label: "To", value: "EUR", kind: .choice, options: options)),
            .field(Field(id: "unit", label: "Unit", value: "km", kind: .choice, options: ["km", "mi"])),
        ])).text
        #expect(text.components(separatedBy: "one of: EUR JPY USD").count == 2, "listed exactly once")
        #expect(text.contains("    one of: the same as from"))
        #expect(text.contains("one of: km mi"))
    }
}
