import DenAccounts
@testable import DenHost
import DenKit
import DenTestSupport
@testable import DenWeb
import DenWebPages
import Foundation
import HummingbirdTesting
import Hummingbird
import Logging
import Synchronization
import Testing

/// An instance whose every event is answered by a closure.
final class ScriptedInstance: ModuleInstance {
    private let reply: (ModuleEvent) throws -> ModuleReply
    private let change: ((FieldChange) throws -> ModuleReply)?

    init(change: ((FieldChange) throws -> ModuleReply)? = nil, _ reply: @escaping (ModuleEvent) throws -> ModuleReply) {
        self.reply = reply
        self.change = change
    }

    func handle(_ event: ModuleEvent) throws -> ModuleReply { try reply(event) }

    func handleChange(_ change: FieldChange) throws -> ModuleReply {
        guard let handler = self.change else { throw ModuleError.unsupported("no change events") }
        return try handler(change)
    }
}

/// A clock the test moves by hand (idle expiry).
final class ManualClock: Sendable {
    private let start = ContinuousClock.now
    private let offset = Mutex<Duration>(.zero)
    var now: ContinuousClock.Instant { start + offset.withLock { $0 } }
    func advance(_ duration: Duration) { offset.withLock { $0 += duration } }
}

/// What the test modules were asked to do.
final class Probe: Sendable {
    private let actions = Mutex<[String]>([])
    /// Released at the end of a test so the hanging builder's thread can finish.
    let release = DispatchSemaphore(value: 0)
    /// How many times the hanging builder was entered.
    private let hangs = Mutex(0)
    var received: [String] { actions.withLock { $0 } }
    func record(_ action: String) { actions.withLock { $0.append(action) } }

    func hang() {
        hangs.withLock { $0 += 1 }
        release.wait()
    }

    /// Waits until the hanging builder is running: an order to rely on, where a fixed sleep
    /// loses the race on a loaded machine. Throws after `seconds`, a bound only against a broken
    /// build hanging the run: in a full parallel run on 2 cores, the blocking end-to-end suites can
    /// hold Swift's cooperative threads for minutes before this test's tasks get one (seen: 4 min).
    func waitForHang(seconds: Double = 900) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while hangs.withLock({ $0 }) == 0 {
            guard ContinuousClock.now < deadline else { throw HangNotReached() }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    struct HangNotReached: Error, CustomStringConvertible {
        var description: String { "the hanging builder was never entered" }
    }
}

/// In-process modules for the HTTP tests:
/// - `pages`: `main` (field `name` with change events, field `note` without; buttons `go`
///   navigate to `other`, `swap` replace with `other`, `echo` shows the fields, `links` asks to
///   open one allowed and one refused URL, `boom` fails), `other` (button `leave`: the `back` effect),
///   `odd/<place>` (`odd` navigates to `odd/café`, a route a URL must escape), `refuse/<how>`
///   (the builder refuses `input` and `unsupported`, fails on `broken`);
/// - `slowpoke`: `slow`, whose builder hangs until the probe releases it; `nap`, whose button
///   `hang` hangs until the probe releases it.
enum TestModules {
    static func pages(_ probe: Probe) -> ModuleDefinition {
        ModuleDefinition(id: "pages", version: "1.0.0", summary: "Test pages", routes: [
            RouteDefinition("main") { _ in
                var screen = Screen(title: "Main page", elements: [
                    .text("Hello <b>world</b>"),
                    .field(Field(id: "name", label: "Name", value: "Ada", changes: true)),
                    .field(Field(id: "note", label: "Note")),
                    .button(Button(id: "go", label: "Go")), .button(Button(id: "swap", label: "Swap")),
                    .button(Button(id: "echo", label: "Echo")), .button(Button(id: "links", label: "Links")),
                    .button(Button(id: "odd", label: "Odd")), .button(Button(id: "boom", label: "Boom")),
                ])
                let base = screen
                return ScriptedInstance(change: { change in
                    probe.record("change:\(change.field)=\(change.fields[change.field] ?? "")")
                    screen = base
                    screen.elements.append(.text("live: \(change.fields["name"] ?? "")"))
                    return ModuleReply(screen: screen)
                }) { event in
                    guard case .action(let id, let fields) = event else { return ModuleReply(screen: screen) }
                    probe.record(id)
                    switch id {
                    case "go": return ModuleReply(screen: screen, effects: [.navigate("other")])
                    case "swap": return ModuleReply(screen: screen, effects: [.replace("other")])
                    case "boom": throw ModuleError.failed("the boom button always fails")
                    case "odd": return ModuleReply(screen: screen, effects: [.navigate("odd/café")])
                    case "links":
                        return ModuleReply(screen: screen, effects: [.openURL("https://example.org/docs"), .openURL("javascript:alert(1)")])
                    case "echo":
                        let shown = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
                        screen = base
                        screen.elements.append(.text("echo: \(shown)"))
                        return ModuleReply(screen: screen)
                    default: return ModuleReply(screen: screen)
                    }
                }
            },
            RouteDefinition("other") { _ in
                let screen = Screen(title: "Other page", elements: [.button(Button(id: "leave", label: "Leave"))])
                return ScriptedInstance { event in
                    guard case .action("leave", _) = event else { return ModuleReply(screen: screen) }
                    return ModuleReply(screen: screen, effects: [.back])
                }
            },
            RouteDefinition("odd/<string:place>") { _ in
                ScriptedInstance { _ in ModuleReply(screen: Screen(title: "Odd place", elements: [])) }
            },
            RouteDefinition("refuse/<string:how>") { context in
                switch try context.string("how") {
                case "input": throw ModuleError.invalidParameter("'input' is not a value this page takes")
                case "unsupported": throw ModuleError.unsupported("this page does not do that")
                case "broken": throw ModuleError.failed("the builder is broken")
                default: return ScriptedInstance { _ in ModuleReply(screen: Screen(title: "Accepted", elements: [])) }
                }
            },
        ])
    }

    static func slowpoke(_ probe: Probe) -> ModuleDefinition {
        ModuleDefinition(id: "slowpoke", version: "1.0.0", summary: "Never answers", routes: [
            RouteDefinition("slow") { _ in
                probe.hang()
                return ScriptedInstance { _ in ModuleReply(screen: Screen(title: "Finally", elements: [])) }
            },
            RouteDefinition("nap") { _ in
                let screen = Screen(title: "Nap", elements: [.button(Button(id: "hang", label: "Hang"))])
                return ScriptedInstance { event in
                    if case .action("hang", _) = event { probe.hang() }
                    return ModuleReply(screen: screen)
                }
            },
        ])
    }
}

/// A runtime with the test modules (and any real plugins named), and a `WebServer` on it.
struct WebHarness {
    let temp: TemporaryDirectory
    let runtime: DenRuntime
    let server: WebServer
    let probe = Probe()

    /// - Parameter testModules: installs `pages` and `slowpoke` too (`pages` serves `main`, so a
    ///   harness with the real Main module leaves them out).
    init(plugins: [String] = [], web: WebConfiguration = WebConfiguration(), callTimeout: Duration? = nil,
         auth: AuthSettings? = nil, testModules: Bool = true, logger: Logger? = nil) throws {
        temp = try TemporaryDirectory("den-web")
        let folder = try temp.folder("plugins")
        for plugin in plugins { _ = try temp.copy(try BuildProducts.require(BuildProducts.library(plugin)), into: folder) }
        var configuration = HostConfiguration(pluginDirectories: plugins.isEmpty ? [] : [folder], cacheDirectory: temp.path("cache"),
                                              dataDirectory: temp.path("data"))
        if let callTimeout { configuration.callPolicy.timeout = callTimeout }
        var settings = auth ?? AuthSettings()
        settings.hashParameters = .testing
        configuration.auth = settings
        runtime = DenRuntime(configuration: configuration, logger: logger)
        runtime.loadPlugins()
        if testModules {
            try #require(runtime.installInProcess(TestModules.pages(probe)).error == nil)
            try #require(runtime.installInProcess(TestModules.slowpoke(probe)).error == nil)
        }
        server = WebServer(runtime: runtime, configuration: web)
    }

    /// Runs `body` against the app through HummingbirdTesting's router client (no sockets).
    func test(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        defer { for _ in 0..<4 { probe.release.signal() } }
        try await server.makeApplication().test(.router, body)
    }
}

/// One response, as a test reads it.
struct Page: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: String
    var location: String? { headers[.location] }
    /// The `den_session` cookie this response sets, if any (the revision cookie is another).
    var setCookie: String? { headers[values: .setCookie].first { $0.hasPrefix(DenWebResponder.cookieName + "=") } }
    /// The `den_rev` cookie's value this response sets, if any.
    var revisionCookie: String? {
        headers[values: .setCookie].first { $0.hasPrefix(SessionCookie.revisionName + "=") }
            .map { String($0.dropFirst(SessionCookie.revisionName.count + 1).prefix { $0 != ";" }) }
    }
}

/// A browser: keeps the session cookie and knows its session's CSRF token (read from the server,
/// so these tests do not depend on the page markup).
final class Browser: Sendable {
    let client: any TestClientProtocol
    let server: WebServer
    private let cookieStore = Mutex<String?>(nil)
    /// `den_device`, once a login set it.
    let device = Mutex<String?>(nil)
    /// `den_rev`, sent back as a browser does (nil: a client that keeps only the session cookie).
    let revision = Mutex<String?>(nil)
    /// False for a client that drops the revision cookie (every request then reads storage).
    let keepsRevision: Bool

    init(_ client: any TestClientProtocol, _ server: WebServer, keepsRevision: Bool = true) {
        self.client = client
        self.server = server
        self.keepsRevision = keepsRevision
    }

    var cookie: String? {
        get { cookieStore.withLock { $0 } }
        set { cookieStore.withLock { $0 = newValue } }
    }

    var csrf: String {
        server.responder.sessions.existing(cookie)?.csrfToken ?? "none"
    }

    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> Page {
        try await send(uri, method: .get, headers: headers, body: nil)
    }

    /// Posts `fields` as a form; `_csrf` is added unless given.
    func post(_ uri: String, _ fields: [(String, String)], csrf: Bool = true) async throws -> Page {
        var all = fields
        if csrf, !fields.contains(where: { $0.0 == FormNames.csrf }) { all.insert((FormNames.csrf, self.csrf), at: 0) }
        let body = all.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return try await postRaw(uri, body: body)
    }

    func postRaw(_ uri: String, body: String, contentType: String = "application/x-www-form-urlencoded") async throws -> Page {
        try await send(uri, method: .post, headers: [.contentType: contentType], body: ByteBuffer(string: body))
    }

    func send(_ uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> Page {
        var headers = headers
        let pairs = [cookie.map { "\(DenWebResponder.cookieName)=\($0)" }, device.withLock { $0 }.map { "\(DeviceCookie.name)=\($0)" },
                     revision.withLock { $0 }.map { "\(SessionCookie.revisionName)=\($0)" }]
        if !pairs.compactMap({ $0 }).isEmpty { headers[.cookie] = pairs.compactMap { $0 }.joined(separator: "; ") }
        let response = try await client.executeRequest(uri: uri, method: method, headers: headers, body: body)
        for set in response.headers[values: .setCookie] {
            if let value = Self.cookieValue(set) { self.cookie = value }
            if keepsRevision, set.hasPrefix("\(SessionCookie.revisionName)=") {
                revision.withLock { $0 = String(set.dropFirst(SessionCookie.revisionName.count + 1).prefix { $0 != ";" }) }
            }
            if set.hasPrefix("\(DeviceCookie.name)=") { device.withLock { $0 = String(set.dropFirst(DeviceCookie.name.count + 1).prefix { $0 != ";" }) } }
        }
        return Page(status: response.status, headers: response.headers, body: String(buffer: response.body))
    }

    static func cookieValue(_ header: String) -> String? {
        let first = header.split(separator: ";").first ?? ""
        let parts = first.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, parts[0] == DenWebResponder.cookieName[...] else { return nil }
        return String(parts[1])
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
