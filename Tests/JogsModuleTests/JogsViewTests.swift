import DenKit
import Testing
@testable import JogsModule

@Suite("Jogs view")
struct JogsViewTests {
    typealias Object = JogsScreenViewObject

    static let form = Object.Form(
        title: "New jog", heading: "Log a run", notices: [.init(kind: .error, text: "Not saved.")], facts: [],
        date: .init(id: "date", label: "Date", text: "2026-03-15", placeholder: "2026-03-15", error: nil),
        distance: .init(id: "distance", label: "Distance (km)", text: "0", placeholder: "5.2", error: "too short"),
        duration: .init(id: "duration", label: "Duration", text: "", placeholder: "28:30", error: nil),
        preview: nil, actions: [.init(id: "save", label: "Save", role: .primary)],
        links: [.init(label: "All jogs", route: "jogs")])

    @Test("forwards appear, actions with their fields, and field changes to the presenter")
    func forwards() {
        let presenter = MockJogsPresenter()
        let view = JogsView(presenter: presenter)
        view.handle(.appear)
        view.handle(.action(id: "save", fields: ["date": "2026-03-14", "distance": "5", "duration": "30:00"]))
        view.handleChange(FieldChange(field: "distance", fields: ["distance": "5.5"]))
        #expect(presenter.appeared == 1)
        #expect(presenter.triggered.map(\.0) == [.save])
        #expect(presenter.triggered.first?.1 == JogsFormInput(date: "2026-03-14", distance: "5", duration: "30:00"))
        #expect(presenter.changes.map(\.0) == ["distance"])
        #expect(presenter.changes.first?.1.distance == "5.5")
    }

    @Test("a form becomes fields that send changes, an error per field, banners, buttons and links")
    func formScreen() {
        let view = JogsView(presenter: MockJogsPresenter())
        view.display(.form(Self.form))
        let screen = view.screen
        #expect(screen.title == "New jog")
        #expect(screen.fields.map(\.id) == ["date", "distance", "duration"])
        #expect(screen.fields.filter { !$0.changes }.isEmpty, "every field sends its changes")
        #expect(screen.field("distance")?.error == "too short")
        // A browser shows its date picker for the day and a decimal keypad for the distance.
        #expect(screen.fields.map(\.kind) == [.date, .number, .text])
        #expect(screen.banners == [Banner(.error, "Not saved.")])
        #expect(screen.buttons == [Button(id: "save", label: "Save", role: .primary)])
        #expect(screen.links == [Link(label: "All jogs", route: "jogs")])
    }

    @Test("each jog of the list links to its detail screen")
    func listScreen() {
        let list = Object.List(
            title: "Jogs of alice", notices: [],
            from: .init(id: "from", label: "From", text: "", placeholder: "", error: nil),
            to: .init(id: "to", label: "To", text: "", placeholder: "", error: nil),
            actions: [.init(id: "filter", label: "Filter", role: .primary)],
            jogs: [JogViewObject(date: "2026-01-05", distance: "5.25 km", duration: "28:30", pace: "5:26 min/km", route: "jogs/7")],
            emptyText: "none", totals: "1 jog · 5.25 km · 28:30 · average pace 5:26 min/km",
            links: [.init(label: "New jog", route: "jogs/new")])
        let screen = JogsView.screen(for: .list(list))
        #expect(screen.listItems == [ItemList.Item(title: "2026-01-05 · 5.25 km in 28:30", detail: "pace 5:26 min/km", route: "jogs/7")])
        #expect(screen.texts.contains("1 jog · 5.25 km · 28:30 · average pace 5:26 min/km"))
    }

    @Test("the confirmation step shows the question and a destructive Delete beside Cancel")
    func confirmationScreen() {
        let screen = JogsView.screen(for: .confirmation(.init(
            title: "Delete jog?", question: "Delete the jog of 2026-01-05?", detail: "5.25 km in 28:30.",
            actions: [.init(id: "confirm-delete", label: "Delete", role: .destructive),
                      .init(id: "cancel-delete", label: "Cancel", role: .secondary)])))
        #expect(screen.buttons.map(\.role) == [.destructive, .secondary])
        #expect(screen.fields.isEmpty)
    }

    @Test("a report without rows shows its sentence instead of an empty table")
    func emptyReport() {
        let screen = JogsView.screen(for: .report(.init(title: "Weekly report of alice", notices: [], explanation: "Per ISO week.",
                                                        columns: ["Week"], rows: [], emptyText: "No jogs yet.", links: [])))
        #expect(screen.tables.isEmpty)
        #expect(screen.texts == ["Per ISO week.", "No jogs yet."])
    }
}
