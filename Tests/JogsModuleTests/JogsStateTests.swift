import DenKit
import Foundation
import Testing
@testable import JogsModule

/// A hot swap snapshots the old instance and restores into a new one built for the same route.
@Suite("Hot-swap state")
struct JogsStateTests {
    let store = InMemoryKeyValueStore()

    func stack(_ route: String, pattern: String, parameters: [String: String] = [:]) -> JogsBuilder.Stack {
        JogsBuilder.assemble(context(route, pattern: pattern, parameters: parameters), destination(pattern, parameters),
                             dependencies: dependencies(store))
    }

    @Test("a half-filled new jog form survives, exactly as typed")
    func halfFilledForm() throws {
        let old = stack("jogs/new", pattern: JogsRoutes.new)
        _ = try old.instance.handle(.appear)
        _ = try old.instance.handleChange(FieldChange(field: "distance", fields: ["date": "2026-03-14", "distance": "5,", "duration": ""]))
        _ = try old.instance.handleChange(FieldChange(field: "duration", fields: ["date": "2026-03-14", "distance": "5,", "duration": "28:"]))
        let bytes = try old.instance.snapshot()
        #expect(String(decoding: bytes, as: UTF8.self)
                == #"{"confirming_delete":false,"fields":{"date":"2026-03-14","distance":"5,","duration":"28:"},"screen":"new","v":1}"#)

        let new = stack("jogs/new", pattern: JogsRoutes.new)
        try new.instance.restore(bytes)
        let screen = try new.instance.handle(.appear).screen
        #expect(screen.field("date")?.value == "2026-03-14")
        #expect(screen.field("distance")?.value == "5,")
        #expect(screen.field("duration")?.value == "28:")
    }

    @Test("edits on a jog and a pending delete confirmation survive; the jog is read afresh")
    func detail() throws {
        let setup = stack("jogs/new", pattern: JogsRoutes.new)
        _ = try setup.instance.handle(.action(id: "save", fields: ["date": "2026-01-05", "distance": "5", "duration": "30:00"]))
        let old = stack("jogs/1", pattern: JogsRoutes.detail, parameters: ["id": "1"])
        _ = try old.instance.handle(.appear)
        _ = try old.instance.handleChange(FieldChange(field: "distance", fields: ["date": "2026-01-05", "distance": "6", "duration": "30:00"]))
        _ = try old.instance.handle(.action(id: "delete", fields: ["date": "2026-01-05", "distance": "6", "duration": "30:00"]))
        let bytes = try old.instance.snapshot()

        let new = stack("jogs/1", pattern: JogsRoutes.detail, parameters: ["id": "1"])
        try new.instance.restore(bytes)
        #expect(try new.instance.handle(.appear).screen.title == "Delete jog?")
        let back = try new.instance.handle(.action(id: "cancel-delete", fields: [:])).screen
        #expect(back.field("distance")?.value == "6")
        #expect(back.elements.first == .heading("5 km in 30:00"), "the stored jog, not the snapshot, gives the figures")
    }

    @Test("the list's typed and applied filter survive")
    func list() throws {
        let old = stack("jogs", pattern: JogsRoutes.list)
        _ = try old.instance.handle(.appear)
        _ = try old.instance.handle(.action(id: "filter", fields: ["from": "2026-01-01", "to": ""]))
        _ = try old.instance.handleChange(FieldChange(field: "to", fields: ["from": "2026-01-01", "to": "2026-01-3"]))
        let new = stack("jogs", pattern: JogsRoutes.list)
        try new.instance.restore(try old.instance.snapshot())
        guard let presenter = new.presenter as? JogListPresenter else { Issue.record("not the list presenter"); return }
        #expect(presenter.state.fields["filter.from"] == "2026-01-01")
        let screen = try new.instance.handle(.appear).screen
        #expect(screen.field("from")?.value == "2026-01-01")
        #expect(screen.field("to")?.value == "2026-01-3")
    }

    @Test("unreadable, newer or another screen's state is refused and the fresh state kept", arguments: [
        "", "junk", #"{"v":2,"screen":"new","fields":{}}"#, #"{"v":1,"screen":"report","fields":{}}"#,
        #"{"v":1,"screen":"elsewhere","fields":{}}"#, #"{"v":1,"screen":"new"}"#,
    ])
    func refused(state: String) throws {
        let fresh = stack("jogs/new", pattern: JogsRoutes.new)
        #expect(throws: (any Error).self) { try fresh.instance.restore(Data(state.utf8)) }
        #expect(fresh.presenter.state == JogsScreenState(screen: .new, fields: ["date": "2026-03-15", "distance": "", "duration": ""]))
    }

    @Test("a state from an older version without confirming_delete, or with unknown keys, is read")
    func tolerant() throws {
        let fresh = stack("jogs/new", pattern: JogsRoutes.new)
        try fresh.instance.restore(Data(#"{"v":1,"screen":"new","fields":{"distance":"3"},"extra":true}"#.utf8))
        #expect(fresh.presenter.state.fields["distance"] == "3")
        #expect(fresh.presenter.state.fields["date"] == "2026-03-15")
    }
}
