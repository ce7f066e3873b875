@testable import DenKit
import Foundation
import Testing

@Suite("Navigation recorder")
struct NavigationSpec {
    @Test("drain returns every requested effect, oldest first")
    func drainInOrder() {
        let navigation = Navigation()
        navigation.navigate(to: "jogs/42")
        navigation.open(url: "https://example.org")
        navigation.replace(with: "login")
        navigation.back()

        #expect(navigation.drain() == [.navigate("jogs/42"), .openURL("https://example.org"), .replace("login"), .back])
    }

    @Test("drain empties the recorder; later requests start a new batch")
    func drainEmpties() {
        let navigation = Navigation()
        navigation.back()
        _ = navigation.drain()

        #expect(navigation.drain().isEmpty)
        navigation.navigate(to: "about")
        #expect(navigation.drain() == [.navigate("about")])
    }

    @Test("a fresh recorder has nothing to drain")
    func freshIsEmpty() {
        #expect(Navigation().drain().isEmpty)
    }
}

@Suite("BuildContext parameters")
struct BuildContextSpec {
    private func context(_ parameters: [String: String], query: [String: String] = [:]) -> BuildContext {
        BuildContext(route: "convert/x", pattern: "convert/<p>", parameters: parameters, query: query, host: .unavailable)
    }

    private func message(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as ModuleError {
            guard case .invalidParameter(let message) = error else { return "wrong case: \(error)" }
            return message
        } catch {
            return "unexpected error: \(error)"
        }
    }

    @Test("string reads a route parameter, then falls back to the query")
    func stringLookup() throws {
        #expect(try context(["name": "ada"]).string("name") == "ada")
        #expect(try context([:], query: ["next": "jogs"]).string("next") == "jogs")
        #expect(try context(["id": "path"], query: ["id": "query"]).string("id") == "path")
    }

    @Test("a missing parameter is an invalidParameter error naming the parameter and the route")
    func missingParameter() throws {
        let text = try #require(message { try context([:]).string("amount") })

        #expect(text.contains("'amount'"))
        #expect(text.contains("convert/x"))
        #expect(throws: ModuleError.self) { try context([:]).int("amount") }
        #expect(throws: ModuleError.self) { try context([:]).double("amount") }
    }

    @Test("int accepts whole numbers", arguments: [("42", 42), ("-7", -7), ("0", 0), ("+3", 3)])
    func intAccepts(text: String, value: Int) throws {
        #expect(try context(["id": text]).int("id") == value)
    }

    @Test("int rejects anything else with a message naming the parameter and the value",
          arguments: ["4.2", "abc", "", "12abc", " 1", "99999999999999999999"])
    func intRejects(text: String) throws {
        let error = try #require(message { try context(["id": text]).int("id") })

        #expect(error == "parameter 'id' must be a whole number, got '\(text)'")
    }

    @Test("double accepts finite numbers", arguments: [("12.5", 12.5), ("-0.25", -0.25), ("3", 3.0), ("1e3", 1000.0)])
    func doubleAccepts(text: String, value: Double) throws {
        #expect(try context(["amount": text]).double("amount") == value)
    }

    @Test("double rejects non-numbers and non-finite values with a message naming the parameter",
          arguments: ["abc", "", "inf", "-infinity", "nan", "1,5"])
    func doubleRejects(text: String) throws {
        let error = try #require(message { try context(["amount": text]).double("amount") })

        #expect(error == "parameter 'amount' must be a number, got '\(text)'")
    }
}

/// A module instance that remembers how it was built; its deinit is observable.
final class RecordingInstance: ModuleInstance {
    let context: BuildContext
    let life: LifeProbe?

    init(_ context: BuildContext, life: LifeProbe? = nil) {
        self.context = context
        self.life = life
    }

    deinit { life?.markGone() }

    func handle(_ event: ModuleEvent) throws -> ModuleReply {
        ModuleReply(screen: Screen(title: context.route, elements: [
            .text("pattern \(context.pattern)"),
            .text("parameters \(context.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))"),
            .text("query \(context.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))"),
            .text("event \(event)"),
        ]))
    }
}

/// Thread-safe flag flipped when an object goes away.
final class LifeProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var gone = false

    var isGone: Bool { lock.withLock { gone } }
    func markGone() { lock.withLock { gone = true } }
}

enum RecordingBuilder: ModuleBuilder {
    static func build(_ context: BuildContext) throws -> any ModuleInstance {
        guard context.parameters["id"] != "0" else { throw ModuleError.invalidParameter("id must not be 0") }
        return RecordingInstance(context)
    }
}

@Suite("Module and route definitions")
struct ModuleDefinitionSpec {
    let context = BuildContext(route: "jogs/42?sort=asc", pattern: "jogs/<int:id>", parameters: ["id": "42"],
                               query: ["sort": "asc"], host: .unavailable)

    @Test("a module definition keeps its identity and its routes in declaration order")
    func definition() {
        let module = ModuleDefinition(id: "jogs", version: "1.2.0", summary: "A jogging log", routes: [
            RouteDefinition("jogs", builder: RecordingBuilder.self),
            RouteDefinition("jogs/<int:id>", builder: RecordingBuilder.self),
        ])

        #expect(module.id == "jogs")
        #expect(module.version == "1.2.0")
        #expect(module.summary == "A jogging log")
        #expect(module.routes.map(\.pattern) == ["jogs", "jogs/<int:id>"])
    }

    @Test("a route defined with a builder type calls that builder with the context")
    func builderType() throws {
        let route = RouteDefinition("jogs/<int:id>", builder: RecordingBuilder.self)

        let instance = try #require(try route.build(context) as? RecordingInstance)

        #expect(instance.context.route == "jogs/42?sort=asc")
        #expect(instance.context.parameters == ["id": "42"])
        #expect(instance.context.query == ["sort": "asc"])
    }

    @Test("a builder's error comes out of the route unchanged")
    func builderError() {
        let route = RouteDefinition("jogs/<int:id>", builder: RecordingBuilder.self)
        var zero = context
        zero.parameters["id"] = "0"

        #expect(throws: ModuleError.invalidParameter("id must not be 0")) { try route.build(zero) }
    }

    @Test("a route defined with a closure calls the closure with the context")
    func closure() throws {
        let route = RouteDefinition("jogs/<int:id>") { context in
            RecordingInstance(BuildContext(route: "seen \(try context.int("id"))", pattern: context.pattern,
                                           parameters: [:], query: [:], host: context.host))
        }

        let instance = try #require(try route.build(context) as? RecordingInstance)

        #expect(instance.context.route == "seen 42")
        #expect(route.pattern == "jogs/<int:id>")
    }

    @Test("an instance that keeps no state refuses snapshot and restore as unsupported")
    func defaultSnapshot() {
        let instance = RecordingInstance(context)

        #expect(throws: ModuleError.self) { try instance.snapshot() }
        #expect(throws: ModuleError.self) { try instance.restore(Data()) }
        do {
            _ = try instance.snapshot()
        } catch let error as ModuleError {
            guard case .unsupported = error else { Issue.record("expected .unsupported, got \(error)"); return }
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

/// A ModuleView that records the events it was given and whose router records navigation.
final class ScriptedView: ModuleView {
    private(set) var events: [ModuleEvent] = []
    let navigation: Navigation
    var screen = Screen(title: "Start", elements: [])

    init(navigation: Navigation) { self.navigation = navigation }

    func handle(_ event: ModuleEvent) {
        events.append(event)
        screen = Screen(title: "After \(events.count)", elements: [])
        if case .action("next", _) = event { navigation.navigate(to: "next") }
    }
}

final class RecordingStateCodec: ModuleStateCodec {
    private(set) var restored: [Data] = []
    func snapshot() throws -> Data { Data("state".utf8) }
    func restore(_ data: Data) throws { restored.append(data) }
}

@Suite("VIPERInstance")
struct VIPERInstanceSpec {
    @Test("an event goes to the view; the reply is the view's new screen plus the router's effects")
    func handle() throws {
        let navigation = Navigation()
        let view = ScriptedView(navigation: navigation)
        let instance = VIPERInstance(view: view, navigation: navigation)

        let reply = try instance.handle(.action(id: "next", fields: ["a": "1"]))

        #expect(view.events == [.action(id: "next", fields: ["a": "1"])])
        #expect(reply.screen.title == "After 1")
        #expect(reply.effects == [.navigate("next")])
        #expect(try instance.handle(.appear).effects.isEmpty, "effects belong to the event that caused them")
    }

    @Test("without a state codec snapshot and restore are unsupported")
    func noState() {
        let navigation = Navigation()
        let instance = VIPERInstance(view: ScriptedView(navigation: navigation), navigation: navigation)

        #expect(throws: ModuleError.self) { try instance.snapshot() }
        #expect(throws: ModuleError.self) { try instance.restore(Data("x".utf8)) }
    }

    @Test("with a state codec snapshot and restore go to the codec")
    func withState() throws {
        let navigation = Navigation()
        let codec = RecordingStateCodec()
        let instance = VIPERInstance(view: ScriptedView(navigation: navigation), navigation: navigation, state: codec)

        #expect(try instance.snapshot() == Data("state".utf8))
        try instance.restore(Data("old".utf8))
        #expect(codec.restored == [Data("old".utf8)])
    }
}
