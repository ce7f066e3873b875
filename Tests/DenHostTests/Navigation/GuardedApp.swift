@testable import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing
import Synchronization

/// What the guarded module's builders and instances were asked to do.
final class GuardProbe: Sendable {
    private let built = Mutex<[String]>([])
    private let acted = Mutex<[String]>([])

    /// The route of every guarded build, in order.
    var builds: [String] { built.withLock { $0 } }
    /// Every action a guarded instance received, in order.
    var actions: [String] { acted.withLock { $0 } }

    func recordBuild(_ route: String) { built.withLock { $0.append(route) } }
    func recordAction(_ id: String) { acted.withLock { $0.append(id) } }
}

/// A runtime with in-process modules for the route-guard tests:
/// - `vaults`: guarded `vault`, `vault/item/<int:id>`, `vault/files/<path:rest>` (each screen
///   names the user it was built for and its route; its actions log out, then stay, go to the
///   lobby or into a loop), an open `lobby` whose actions navigate (`go`, field `route`),
///   replace (`swap`) and log out (`log-out`), and an open `loop` that navigates to itself;
/// - a login module (plain, guarded, or none) serving `login`: it shows `next`, and its `log-in`
///   action registers and logs in through the real `auth` service, then replaces itself with
///   `next` (`main` when missing), as docs/ABI.md asks of a login module.
struct GuardedApp {
    enum Login { case none, plain, guarded }

    static let password = "correct horse"

    let temp: TemporaryDirectory
    let runtime: DenRuntime
    let probe = GuardProbe()

    init(login: Login = .plain) throws {
        temp = try TemporaryDirectory("den-guards")
        var configuration = HostConfiguration(cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data"))
        configuration.auth = AuthTestSupport.settings()
        runtime = DenRuntime(configuration: configuration)
        try #require(runtime.installInProcess(Self.vaults(probe)).error == nil)
        switch login {
        case .none: break
        case .plain: try #require(runtime.installInProcess(Self.login(guarded: false)).error == nil)
        case .guarded: try #require(runtime.installInProcess(Self.login(guarded: true)).error == nil)
        }
    }

    /// Sets the session's user directly, as a successful `auth.login` (or `auth.logout`) would;
    /// the account is made first if need be (a session only keeps a user whose account exists).
    func setUser(_ user: String?, of session: NavigationSession) {
        if let user { _ = try? runtime.accounts.register(username: user, password: Self.password) }
        runtime.sessions.setUser(user, of: session.id)
    }

    static func vaults(_ probe: GuardProbe) -> ModuleDefinition {
        let vault: @Sendable (BuildContext) throws -> any ModuleInstance = { context in
            probe.recordBuild(context.route)
            let user = try HostSessionValues(context.host).loggedInUser() ?? "nobody"
            let screen = Screen(title: "Vault", elements: [.text("vault of \(user)"), .text("route \(context.route)")])
            return ScriptedInstance { event in
                guard case .action(let id, _) = event else { return ModuleReply(screen: screen) }
                probe.recordAction(id)
                switch id {
                case "log-out":
                    _ = try HostAuthClient(context.host).logOut()
                    return ModuleReply(screen: screen)
                case "log-out-and-lobby":
                    _ = try HostAuthClient(context.host).logOut()
                    return ModuleReply(screen: screen, effects: [.navigate("lobby")])
                case "log-out-and-loop":
                    _ = try HostAuthClient(context.host).logOut()
                    return ModuleReply(screen: screen, effects: [.navigate("loop")])
                default:
                    return ModuleReply(screen: screen)
                }
            }
        }
        return ModuleDefinition(id: "vaults", version: "1.0.0", summary: "Guarded screens", routes: [
            RouteDefinition("vault", requiresLogin: true, build: vault),
            RouteDefinition("vault/item/<int:id>", requiresLogin: true, build: vault),
            RouteDefinition("vault/files/<path:rest>", requiresLogin: true, build: vault),
            // Navigates to itself on every event: a redirect loop the host must stop.
            RouteDefinition("loop") { _ in
                ScriptedInstance { _ in ModuleReply(screen: Screen(title: "Loop", elements: []), effects: [.navigate("loop")]) }
            },
            RouteDefinition("lobby") { context in
                ScriptedInstance { event in
                    let screen = Screen(title: "Lobby", elements: [.text("open to everyone")])
                    guard case .action(let id, let fields) = event else { return ModuleReply(screen: screen) }
                    switch id {
                    case "go": return ModuleReply(screen: screen, effects: [.navigate(fields["route"] ?? "")])
                    case "swap": return ModuleReply(screen: screen, effects: [.replace(fields["route"] ?? "")])
                    case "log-out":
                        _ = try HostAuthClient(context.host).logOut()
                        return ModuleReply(screen: screen)
                    default: return ModuleReply(screen: screen)
                    }
                }
            },
        ])
    }

    static func login(guarded: Bool) -> ModuleDefinition {
        ModuleDefinition(id: guarded ? "trap" : "login", version: "1.0.0", summary: "Logs users in", routes: [
            RouteDefinition("login", requiresLogin: guarded) { context in
                let next = context.query[RouteGuard.nextParameter]
                let screen = Screen(title: "Log in", elements: [
                    .text("next: \(next ?? "(none)")"),
                    .field(Field(id: "username", label: "Username")),
                    .field(Field(id: "password", label: "Password", kind: .password)),
                    .button(Button(id: "log-in", label: "Log in")),
                ])
                return ScriptedInstance { event in
                    guard case .action("log-in", let fields) = event else { return ModuleReply(screen: screen) }
                    let auth = HostAuthClient(context.host)
                    let username = fields["username"] ?? "", password = fields["password"] ?? ""
                    _ = try auth.register(username: username, password: password) // refused once taken: fine
                    let answer = try auth.logIn(username: username, password: password)
                    guard answer.outcome == .ok else {
                        return ModuleReply(screen: Screen(title: "Log in", elements: [.banner(Banner(.error, answer.message ?? "refused"))]))
                    }
                    let target = next.flatMap { $0.isEmpty ? nil : $0 } ?? "main"
                    return ModuleReply(screen: screen, effects: [.replace(target)])
                }
            },
        ])
    }
}

extension SessionView {
    /// Every text and banner string on the screen, for `contains` checks.
    var texts: [String] {
        screen.elements.compactMap { element in
            switch element {
            case .text(let text, _): text
            case .banner(let banner): banner.text
            default: nil
            }
        }
    }

    func shows(_ fragment: String) -> Bool {
        texts.contains { $0.contains(fragment) }
    }
}
