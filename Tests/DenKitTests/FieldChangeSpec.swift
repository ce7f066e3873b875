import CDenABI
@testable import DenKit
import Foundation
import Testing

/// Change events: fields that ask for them (`changes`), the `change` event document, and its
/// way through the C glue to a VIPER view.
@Suite("Field change events")
struct FieldChangeSpec {
    @Test("a field writes changes only when it asks for them, and reads it back")
    func fieldFlag() throws {
        let plain = String(decoding: try WireFormat.encode(Field(id: "a", label: "A")), as: UTF8.self)
        #expect(!plain.contains("changes"))
        let asking = Field(id: "a", label: "A", changes: true)
        let json = try WireFormat.encode(asking)
        #expect(String(decoding: json, as: UTF8.self).contains(#""changes":true"#))
        #expect(try WireFormat.decode(Field.self, from: json) == asking)
        #expect(try WireFormat.decode(Field.self, from: Data(#"{"id":"a"}"#.utf8)).changes == false)
    }

    @Test("the change document is {v, type: change, field, fields}")
    func wire() throws {
        let change = FieldChange(field: "amount", fields: ["amount": "5"])
        let json = String(decoding: try WireFormat.encode(change), as: UTF8.self)
        #expect(json == #"{"field":"amount","fields":{"amount":"5"},"type":"change","v":1}"#)
        #expect(try WireFormat.decode(FieldChange.self, from: Data(json.utf8)) == change)
        #expect(throws: DecodingError.self) { try WireFormat.decode(FieldChange.self, from: Data(#"{"v":1,"type":"change"}"#.utf8)) }
    }

    final class ChangeView: ModuleView, @unchecked Sendable {
        var changes: [FieldChange] = []
        func handle(_ event: ModuleEvent) {}
        func handleChange(_ change: FieldChange) { changes.append(change) }
        var screen: Screen { Screen(title: "changes: \(changes.count)", elements: []) }
    }

    final class QuietView: ModuleView {
        func handle(_ event: ModuleEvent) {}
        var screen: Screen { Screen(title: "quiet", elements: []) }
    }

    @Test("a VIPER instance hands a change to its view and replies with the new screen")
    func viperInstance() throws {
        let view = ChangeView()
        let instance = VIPERInstance(view: view, navigation: Navigation())
        let reply = try instance.handleChange(FieldChange(field: "x", fields: ["x": "1"]))
        #expect(reply.screen.title == "changes: 1")
        // A view that asks for no change events needs no code for them.
        #expect(try VIPERInstance(view: QuietView(), navigation: Navigation())
            .handleChange(FieldChange(field: "x", fields: [:])).screen.title == "quiet")
    }

    @Test("through the C glue, a change event reaches the instance")
    func throughTheGlue() throws {
        let view = ChangeView()
        let side = FakeHostSide()
        let module = ModuleDefinition(id: "c", version: "1.0.0", summary: "", routes: [
            RouteDefinition("c") { _ in VIPERInstance(view: view, navigation: Navigation()) },
        ])
        #expect(side.enter(module) == Int32(DEN_OK.rawValue))
        let built = side.build(try #require(side.routes.first), params: #"{"route":"c","pattern":"c","parameters":{},"query":{}}"#)
        let (status, reply) = FakeHostSide.send(#"{"v":1,"type":"change","field":"x","fields":{"x":"2"}}"#, to: built)
        #expect(status == Int32(DEN_OK.rawValue))
        #expect(reply.contains("changes: 1"))
        #expect(view.changes == [FieldChange(field: "x", fields: ["x": "2"])])
    }
}
