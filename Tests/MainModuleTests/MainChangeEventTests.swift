import DenKit
import Foundation
import Testing
@testable import MainModule

/// The converter converts as the user types: its fields ask for change events and every
/// change recomputes; Convert still converts and saves.
@Suite("Main recomputes on every change")
struct MainChangeEventTests {
    @Test("every field of the converter asks for change events")
    func fieldsAsk() throws {
        let stack = try MainBuilder.assemble(dependencies: offlineDependencies())
        let fields = try stack.instance.handle(.appear).screen.fields
        #expect(fields.map(\.id) == ["from", "to", "amount"])
        #expect(fields.allSatisfy { $0.changes })
    }

    @Test("a change recomputes the result and saves nothing; Convert saves")
    func changeRecomputes() throws {
        let settings = MockSettingsStore()
        let stack = try MainBuilder.assemble(dependencies: offlineDependencies(settings))
        let reply = try stack.instance.handleChange(FieldChange(field: "amount", fields: ["from": "USD", "to": "EUR", "amount": "200"]))
        #expect(reply.screen.texts.contains("200 USD = 178.17 EUR"))
        #expect(settings.writes.isEmpty)
        _ = try stack.instance.handle(.action(id: "convert", fields: ["from": "USD", "to": "EUR", "amount": "200"]))
        #expect(settings.writes == [SettingsKey.lastConversion(of: testUser)])
    }

    @Test("a refused change keeps the previous amount and says why, like the field")
    func refusedChange() throws {
        let stack = try MainBuilder.assemble(dependencies: offlineDependencies())
        let reply = try stack.instance.handleChange(FieldChange(field: "amount", fields: ["amount": "007"]))
        #expect(reply.screen.texts.contains("100 USD = 89.08 EUR"))
        #expect(reply.screen.field("amount")?.error?.contains("no second leading zero") == true)
    }

    @Test("the change event reaches the view through DenKit's wire format")
    func throughTheWire() throws {
        let view = MockPresenter()
        let mainView = MainView(presenter: view)
        let change = try WireFormat.decode(FieldChange.self, from: Data(#"{"v":1,"type":"change","field":"to","fields":{"to":"JPY"}}"#.utf8))
        mainView.handleChange(change)
        #expect(view.changes == [MainFormInput(to: "JPY")])
    }
}
