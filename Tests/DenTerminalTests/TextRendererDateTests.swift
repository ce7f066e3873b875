import DenKit
@testable import DenTerminalText
import Testing

@Suite("Date fields in the terminal")
struct TextRendererDateTests {
    @Test("a date field's line says the format to type; the module's label does not need to")
    func dateFormat() {
        let text = TextRenderer().render(Screen(title: "New jog", elements: [
            .field(Field(id: "date", label: "Date", value: "", kind: .date, placeholder: "2026-11-28")),
            .field(Field(id: "note", label: "Note", value: "", kind: .text)),
        ])).text
        #expect(text.contains("Date (YYYY-MM-DD) [date]: (2026-11-28)"), "\(text)")
        #expect(text.contains("Note [note]:"))
        #expect(!text.contains("Note (YYYY-MM-DD)"))
    }
}
