import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

/// The real libJogsModule.so in a real host: accounts and sessions from the `auth` and `session`
/// services, jogs in SQLite through `storage.*` (including `storage.increment`), over the C ABI.
/// The module's own tests cover its rules; this checks the pieces meet.
@Suite("The Jogs plugin through the host")
struct JogsThroughHostSpec {
    let temp: TemporaryDirectory
    let runtime: DenRuntime

    init() throws {
        temp = try TemporaryDirectory("den-jogs")
        let plugins = try temp.folder("plugins")
        try temp.copy(try BuildProducts.require(BuildProducts.library("JogsModule")), into: plugins)
        var configuration = HostConfiguration(pluginDirectories: [plugins], bundledDirectory: nil,
                                              cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data"))
        configuration.auth.hashParameters = .testing // the real scrypt cost takes a second per hash in debug
        runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins()
        for name in ["alice", "bob"] {
            _ = try runtime.accounts.register(username: name, password: "correct horse")
        }
    }

    /// A UI session with `user` logged in through `auth.login`, as the Login module does it.
    func session(as user: String) throws -> NavigationSession {
        let session = runtime.makeSession()
        let answer = runtime.services.call("auth.login", request: Data(#"{"username":"\#(user)","password":"correct horse"}"#.utf8),
                                           caller: ServiceCaller(moduleID: "login", session: session.id))
        #expect(String(decoding: answer.body, as: UTF8.self).contains(#""outcome":"ok""#))
        return session
    }

    func add(_ session: NavigationSession, _ date: String, _ distance: String, _ duration: String) -> SessionView {
        _ = session.open("jogs/new")
        return session.send(action: "save", fields: ["date": date, "distance": distance, "duration": duration])
    }

    @Test("a saved jog opens on its detail screen and shows in the list and the report")
    func round() throws {
        let alice = try session(as: "alice")
        let saved = add(alice, "2026-01-05", "5.25", "28:30")
        #expect(saved.route == "jogs/1")
        #expect(saved.screen.title == "Jog of 2026-01-05")
        #expect(saved.errors.isEmpty, "\(saved.errors)")

        let list = alice.open("jogs")
        #expect(list.screen.title == "Jogs of alice")
        #expect(list.screen.elements.contains(.text("1 jog · 5.25 km · 28:30 · average pace 5:26 min/km", style: .emphasis)))
        let report = alice.open("jogs/report")
        #expect(report.screen.elements.contains { if case .table(let table) = $0 { table.rows.first?.first == "2026-W02" } else { false } })
    }

    @Test("bob opening alice's jog gets the not-found screen, the same as for an id nobody has")
    func ownerOnly() throws {
        let alice = try session(as: "alice")
        _ = add(alice, "2026-01-05", "7.77", "44:44")
        let bob = try session(as: "bob")
        let hers = bob.open("jogs/1")
        let nobodys = bob.open("jogs/2")
        #expect(hers.screen.title == "Jog not found")
        // Word for word the screen of jog 2, which nobody has, but for the number.
        #expect("\(hers.screen)" == "\(nobodys.screen)".replacingOccurrences(of: "jog 2", with: "jog 1"))
        #expect(!"\(hers.screen)".contains("7.77"))
    }

    /// The generated registration hands the builder a typed `id: Int`. Every id the router passes
    /// that is no jog's (0, negative, zero-padded, Int64.max) must still open Jogs' own screen
    /// naming the id as typed, as when the builder read the text itself: not a generic parameter error.
    @Test("an id that is no jog's opens Jogs' \"Jog not found\", naming it as typed",
          arguments: ["0", "-3", "007", "9223372036854775807"])
    func noSuchID(id: String) throws {
        let alice = try session(as: "alice")
        _ = add(alice, "2026-01-05", "5.25", "28:30")
        let view = alice.open("jogs/\(id)")
        #expect(view.errors.isEmpty, "\(view.errors)")
        #expect(view.screen.title == "Jog not found", "\(view.screen)")
        #expect("\(view.screen)".contains("There is no jog \(id) in your log"), "\(view.screen)")
    }

    /// `<int>` takes numbers within Int64 only (docs/modules/jogs.md), so a longer one matches no
    /// pattern: den's own "Not found", which lists Jogs' screens, as before the typed parameter.
    @Test("an id beyond Int64 matches no route: den's \"Not found\", never a parameter error",
          arguments: ["9223372036854775808", "99999999999999999999999"])
    func beyondInt64(id: String) throws {
        let view = try session(as: "alice").open("jogs/\(id)")
        #expect(view.screen.title == "Not found", "\(view.screen)")
        #expect("\(view.screen)".contains("no registered pattern matches its path"), "\(view.screen)")
        #expect(!"\(view.screen)".contains("must be a whole number"))
    }

    @Test("two sessions adding at once get distinct ids from storage.increment")
    func concurrentSessions() throws {
        let sessions = [try session(as: "alice"), try session(as: "alice")]
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            for day in 1...10 {
                _ = add(sessions[index], "2026-01-\(day < 10 ? "0" : "")\(day)", "5", "30:00")
            }
        }
        let list = sessions[0].open("jogs")
        let routes = list.screen.elements.flatMap { element -> [String] in
            if case .list(let list) = element { list.items.compactMap(\.route) } else { [] }
        }
        #expect(routes.count == 20)
        #expect(Set(routes) == Set((1...20).map { "jogs/\($0)" }))
    }

    @Test("den users delete removes the user's jogs and id counter with the account")
    func deletingTheUser() throws {
        let alice = try session(as: "alice")
        _ = add(alice, "2026-01-05", "5", "30:00")
        _ = add(try session(as: "bob"), "2026-01-06", "6", "36:00")
        let removed = try runtime.accounts.delete("alice")
        #expect(removed["jogs"] == 2, "the jog and jogs-last-id")
        let bob = try session(as: "bob")
        #expect(bob.open("jogs/1").screen.title == "Jog of 2026-01-06")
    }

    @Test("with nobody logged in no jog is ever shown")
    func nobody() throws {
        _ = add(try session(as: "alice"), "2026-01-05", "7.77", "44:44")
        let anonymous = runtime.makeSession()
        for route in ["jogs", "jogs/1", "jogs/report", "jogs/new"] {
            #expect(!"\(anonymous.open(route).screen)".contains("7.77"), "\(route)")
        }
    }
}
