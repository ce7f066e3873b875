import DenKit
import Foundation
import Testing
@testable import JogsModule

/// Whole stacks, built per route the way the host builds them, over in-memory storage and
/// session: what a user sees, screen by screen.
@Suite("Jogs builder and instance")
struct JogsBuilderTests {
    let store = InMemoryKeyValueStore()

    func open(_ route: String, as user: String? = "alice") throws -> VIPERInstance {
        try stack(route, as: user).instance
    }

    func stack(_ route: String, as user: String? = "alice") throws -> JogsBuilder.Stack {
        let (path, query) = Self.split(route)
        let pattern: String
        var parameters: [String: String] = [:]
        switch path {
        case "jogs", "jogs/new", "jogs/report": pattern = path
        default:
            pattern = JogsRoutes.detail
            parameters["id"] = String(path.dropFirst("jogs/".count))
        }
        return JogsBuilder.assemble(context(route, pattern: pattern, parameters: parameters, query: query),
                                    destination(pattern, parameters), dependencies: dependencies(store, user: user))
    }

    static func split(_ route: String) -> (String, [String: String]) {
        let parts = route.split(separator: "?", maxSplits: 1).map(String.init)
        var query: [String: String] = [:]
        for pair in (parts.count > 1 ? parts[1] : "").split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            query[kv[0]] = kv.count > 1 ? kv[1] : ""
        }
        return (parts[0], query)
    }

    /// Adds a jog through the New jog screen, as the user would; returns its id.
    @discardableResult
    func add(_ date: String, _ distance: String, _ duration: String, as user: String = "alice") throws -> Int {
        let form = try open("jogs/new", as: user)
        _ = try form.handle(.appear)
        let reply = try form.handle(.action(id: "save", fields: ["date": date, "distance": distance, "duration": duration]))
        guard case .replace(let route)? = reply.effects.first, let id = Int(route.dropFirst("jogs/".count)) else {
            throw TestFailure("not saved: \(reply.screen.allText)")
        }
        return id
    }

    @Test("the module is 'jogs' 1.0.0; every route needs a logged-in user")
    func definition() {
        #expect(jogsModule.id == "jogs")
        #expect(jogsModule.version == "1.0.0")
        #expect(jogsModule.routes.map(\.pattern) == ["jogs", "jogs/new", "jogs/report", "jogs/<int:id>"])
        let guarded = jogsModule.routes.filter { $0.requiresLogin }.map(\.pattern)
        #expect(guarded == ["jogs", "jogs/new", "jogs/report", "jogs/<int:id>"])
        #expect(jogsModule.settings.isEmpty)
    }

    @Test("built with the real host clients and no host, it shows a message, never a crash", arguments: [
        ("jogs", "jogs"), ("jogs/new", "jogs/new"), ("jogs/report", "jogs/report"), ("jogs/1", JogsRoutes.detail),
    ])
    func buildWithoutHost(route: String, pattern: String) throws {
        // Through the generated registration, as the host calls it.
        let registered = try #require(jogsModule.routes.first { $0.pattern == pattern })
        let instance = try registered.build(context(route, pattern: pattern, parameters: pattern == JogsRoutes.detail ? ["id": "1"] : [:]))
        let reply = try instance.handle(.appear)
        #expect(reply.screen.banners.first?.text.contains("could not tell who is logged in") == true, "\(reply.screen.allText)")
        _ = try WireFormat.encode(reply)
    }

    @Test("new, list, detail, edit, report, delete: the whole round through the instances")
    func wholeRound() throws {
        let first = try add("2026-01-05", "5.25", "28:30")
        try add("2026-01-06", "10", "50:00")
        #expect(first == 1)

        let list = try open("jogs").handle(.appear).screen
        #expect(list.title == "Jogs of alice")
        #expect(list.listItems.map(\.route) == ["jogs/2", "jogs/1"])
        #expect(list.texts.contains("2 jogs · 15.25 km · 1:18:30 · average pace 5:09 min/km"))

        let detail = try open("jogs/1")
        #expect(try detail.handle(.appear).screen.field("distance")?.value == "5.25")
        let saved = try detail.handle(.action(id: "save", fields: ["date": "2026-01-05", "distance": "5.5", "duration": "28:30"]))
        #expect(saved.screen.banners.map(\.text) == ["Saved your changes."])

        let report = try open("jogs/report").handle(.appear).screen
        #expect(report.tables.first?.rows == [["2026-W02", "2026-01-05 to 2026-01-11", "2", "15.5 km", "11.8 km/h", "5:04 min/km"]])

        let asking = try detail.handle(.action(id: "delete", fields: [:]))
        #expect(asking.screen.title == "Delete jog?")
        #expect(asking.effects.isEmpty)
        let done = try detail.handle(.action(id: "confirm-delete", fields: [:]))
        #expect(done.effects == [.replace("jogs")], "to the list, whatever was below")
        #expect(try open("jogs").handle(.appear).screen.listItems.map(\.route) == ["jogs/2"])
    }

    @Test("the list's link filter: jogs?from=…&to=…")
    func deepLinkFilter() throws {
        try add("2025-12-31", "5", "30:00")
        try add("2026-01-15", "5", "30:00")
        let screen = try open("jogs?from=2026-01-01&to=2026-01-31").handle(.appear).screen
        #expect(screen.listItems.map(\.route) == ["jogs/2"])
        #expect(screen.field("from")?.value == "2026-01-01")
        #expect(screen.field("to")?.value == "2026-01-31")

        let refused = try open("jogs?from=2026-01-31&to=2026-01-01").handle(.appear).screen
        #expect(refused.listItems.count == 2)
        #expect(refused.field("to")?.error == "To: 2026-01-01 is before From, 2026-01-31; swap the two dates.")
    }

    @Test("nobody logged in: every route shows 'Log in first' and nothing of anyone's jogs",
          arguments: ["jogs", "jogs/new", "jogs/report", "jogs/1", "jogs?from=2026-01-01"])
    func loggedOut(route: String) throws {
        try add("2026-01-05", "7.77", "44:44")
        let screen = try open(route, as: nil).handle(.appear).screen
        #expect(screen.title == "Log in first")
        #expect(screen.links.first?.route.hasPrefix("login?next=jogs") == true)
        #expect(!screen.allText.contains("7.77"))
        #expect(!screen.allText.contains("44:44"))
        #expect(!screen.allText.contains("alice"))
    }

    @Test("another user's id gets exactly the screen of an id nobody has, in every way it can be reached")
    func ownerOnly() throws {
        let alices = try add("2026-01-05", "7.77", "44:44")
        let bobsView = try open("jogs/\(alices)", as: "bob")
        let bobSees = try bobsView.handle(.appear).screen
        let nobodysJog = try open("jogs/\(alices)", as: "carol").handle(.appear).screen // carol has no jogs at all
        #expect(bobSees == nobodysJog)
        #expect(bobSees.title == "Jog not found")
        #expect(!bobSees.allText.contains("7.77"))

        // Actions on it change nothing and show nothing.
        for action in ["save", "delete", "confirm-delete"] {
            let reply = try bobsView.handle(.action(id: action, fields: ["date": "2026-01-01", "distance": "1", "duration": "5:00"]))
            #expect(reply.screen == bobSees, "\(action)")
            #expect(reply.effects.isEmpty)
        }
        #expect(try open("jogs/\(alices)").handle(.appear).screen.field("distance")?.value == "7.77")

        // Bob's list, report and snapshot hold nothing of alice's.
        #expect(try open("jogs", as: "bob").handle(.appear).screen.listItems.isEmpty)
        #expect(try open("jogs/report", as: "bob").handle(.appear).screen.tables.isEmpty)
        #expect(!String(decoding: try bobsView.snapshot(), as: UTF8.self).contains("7.77"))
    }

    /// The router's `<int>` takes -?digits within Int64 (= Int here), so every id it passes fits
    /// the builder's `Int`; longer numbers never reach Jogs (JogsThroughHostSpec checks that end).
    @Test("the largest and smallest ids the router takes are not found, not a crash",
          arguments: ["9223372036854775807", "-9223372036854775808", "0"])
    func extremeIDs(id: String) throws {
        let screen = try open("jogs/\(id)").handle(.appear).screen
        #expect(screen.title == "Jog not found")
        #expect(screen.allText.contains("There is no jog \(id) in your log"))
    }

    /// The generated registration reads `<int:id>` once and passes it typed; the detail screen
    /// opens that id, with no second read of the context's parameters.
    @Test("the detail screen opens the typed id it was built with")
    func typedID() throws {
        let id = try add("2026-01-05", "7.77", "44:44")
        let stack = JogsBuilder.assemble(context("jogs/\(id)", pattern: JogsRoutes.detail), .detail(id: id, text: "\(id)"),
                                         dependencies: dependencies(store))
        let screen = try stack.instance.handle(.appear).screen
        #expect(screen.title == "Jog of 2026-01-05")
        #expect(screen.field("distance")?.value == "7.77")
    }

    @Test("a destroyed instance frees its whole stack")
    func noLeaks() throws {
        weak var view: JogsView?
        weak var presenter: AnyObject?
        weak var interactor: JogsInteractor?
        weak var router: JogsRouter?
        weak var instance: VIPERInstance?
        try add("2026-01-05", "5", "30:00")
        try {
            let stack = try stack("jogs/1")
            _ = try stack.instance.handle(.appear)
            _ = try stack.instance.handle(.action(id: "delete", fields: [:]))
            _ = try stack.instance.handle(.action(id: "confirm-delete", fields: [:]))
            view = stack.view
            presenter = stack.presenter
            interactor = stack.interactor
            router = stack.router
            instance = stack.instance
            #expect(presenter != nil)
        }()
        #expect(instance == nil)
        #expect(view == nil)
        #expect(presenter == nil)
        #expect(interactor == nil)
        #expect(router == nil)
    }

    @Test("the ownership follows VIPERRoles: the router holds the view weakly")
    func ownership() throws {
        let stack = try stack("jogs")
        #expect(stack.router.view === stack.view)
        #expect(stack.view.presenter === stack.presenter)
    }
}
