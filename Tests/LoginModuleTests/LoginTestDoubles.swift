import DenKit
import Foundation
@testable import LoginModule

/// `Authenticating` that answers as scripted and records every call (passwords included: the
/// tests check what was sent). Like the host, an `ok` login sets the session's `user` and a
/// logout clears it, when a session is attached.
final class MockAuth: Authenticating, @unchecked Sendable {
    enum Call: Equatable {
        case register(username: String, password: String)
        case logIn(username: String, password: String)
        case logOut
        case changePassword(current: String, new: String)
        case resetPassword(token: String, new: String)
    }

    private(set) var calls: [Call] = []
    var registerAnswer = AuthAnswer(outcome: .ok, username: "alice")
    var logInAnswer = AuthAnswer(outcome: .ok, username: "alice")
    var logOutAnswer = AuthAnswer(outcome: .ok, username: "alice")
    var changeAnswer = AuthAnswer(outcome: .ok, username: "alice")
    var resetAnswer = AuthAnswer(outcome: .ok, username: "alice")
    /// Thrown by every call when set, as the host client throws.
    var failure: HostServiceError?
    let session: InMemorySessionValues?

    init(session: InMemorySessionValues? = nil) {
        self.session = session
    }

    func register(username: String, password: String) throws -> AuthAnswer {
        try answer(.register(username: username, password: password), registerAnswer)
    }

    func logIn(username: String, password: String) throws -> AuthAnswer {
        let answer = try answer(.logIn(username: username, password: password), logInAnswer)
        if answer.outcome == .ok, let name = answer.username { try session?.set(name, forKey: SessionLimits.userKey) }
        return answer
    }

    func logOut() throws -> AuthAnswer {
        let answer = try answer(.logOut, logOutAnswer)
        try session?.delete(SessionLimits.userKey)
        return answer
    }

    func changePassword(current: String, new: String) throws -> AuthAnswer {
        try answer(.changePassword(current: current, new: new), changeAnswer)
    }

    func resetPassword(token: String, new: String) throws -> AuthAnswer {
        try answer(.resetPassword(token: token, new: new), resetAnswer)
    }

    private func answer(_ call: Call, _ answer: AuthAnswer) throws -> AuthAnswer {
        calls.append(call)
        if let failure { throw failure }
        return answer
    }
}

/// `SessionValues` whose every call fails, as with no host attached.
struct FailingSession: SessionValues {
    let error = HostServiceError(service: "session.get", status: 6, message: "session.get: the session store is gone")
    func get(_ key: String) throws -> String? { throw error }
    func set(_ value: String, forKey key: String) throws { throw error }
    func delete(_ key: String) throws -> Bool { throw error }
}

/// Keeps every log line.
final class RecordingLog: ModuleLog, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] { lock.withLock { stored } }

    func log(_ level: LogLevel, _ message: String) {
        lock.withLock { stored.append("\(level): \(message)") }
    }
}

/// Records what the interactor reports.
final class MockInteractorOutput: LoginInteractorOutput {
    enum Call: Equatable {
        case loaded(String?)
        case sessionUnreadable(String)
        case succeeded(AuthSuccess)
        case failed(AuthFailure)
    }

    private(set) var calls: [Call] = []

    func interactorDidLoad(user: String?) { calls.append(.loaded(user)) }
    func interactorCouldNotReadSession(_ reason: String) { calls.append(.sessionUnreadable(reason)) }
    func interactorDidSucceed(_ success: AuthSuccess) { calls.append(.succeeded(success)) }
    func interactorDidFail(_ failure: AuthFailure) { calls.append(.failed(failure)) }
}

/// Records what the presenter asks of the interactor and answers with the scripted reports.
final class MockLoginInteractor: LoginInteractorInput {
    enum Call: Equatable {
        case loadUser
        case logIn(Credentials)
        case register(NewAccount)
        case resetPassword(PasswordReset)
        case changePassword(PasswordChange)
        case logOut
    }

    weak var output: (any LoginInteractorOutput)?
    private(set) var calls: [Call] = []
    /// Who `loadUser` reports.
    var user: String?
    /// What the next account operation reports (nothing when nil).
    var outcome: Result<AuthSuccess, AuthFailure>?

    func loadUser() {
        calls.append(.loadUser)
        output?.interactorDidLoad(user: user)
    }

    func logIn(_ credentials: Credentials) { report(.logIn(credentials)) }
    func register(_ account: NewAccount) { report(.register(account)) }
    func resetPassword(_ reset: PasswordReset) { report(.resetPassword(reset)) }
    func changePassword(_ change: PasswordChange) { report(.changePassword(change)) }
    func logOut() { report(.logOut) }

    private func report(_ call: Call) {
        calls.append(call)
        switch outcome {
        case .success(let success)?: output?.interactorDidSucceed(success)
        case .failure(let failure)?: output?.interactorDidFail(failure)
        case nil: break
        }
    }
}

/// Records the navigation the presenter asks for.
final class MockLoginRouter: LoginRouterInput {
    enum Call: Equatable {
        case goOn(NextRoute?)
        case show(LoginPage, next: NextRoute?)
    }

    private(set) var calls: [Call] = []

    func goOn(to next: NextRoute?) { calls.append(.goOn(next)) }
    func show(_ page: LoginPage, next: NextRoute?) { calls.append(.show(page, next: next)) }
}

/// Records what the presenter tells the view, in order.
final class MockLoginView: LoginViewInput {
    enum Call: Equatable {
        case display(LoginViewObject)
        case loginError(LoginErrorViewObject)
    }

    private(set) var calls: [Call] = []

    var displayed: [LoginViewObject] {
        calls.compactMap { if case .display(let object) = $0 { object } else { nil } }
    }

    var errors: [LoginErrorViewObject] {
        calls.compactMap { if case .loginError(let error) = $0 { error } else { nil } }
    }

    func display(_ viewObject: LoginViewObject) { calls.append(.display(viewObject)) }
    func displayLoginError(_ error: LoginErrorViewObject) { calls.append(.loginError(error)) }
}

/// Records what the view forwards to the presenter.
final class MockLoginPresenter: LoginPresenterInput {
    private(set) var appeared = 0
    private(set) var triggered: [(LoginAction, LoginFormInput)] = []

    func viewDidAppear() { appeared += 1 }
    func didTrigger(_ action: LoginAction, form: LoginFormInput) { triggered.append((action, form)) }
}

func nextRoute(_ route: String) -> NextRoute {
    NextRoute(trusted: route)
}

func context(_ pattern: String, route: String? = nil, query: [String: String] = [:]) -> BuildContext {
    BuildContext(route: route ?? pattern, pattern: pattern, parameters: [:], query: query, host: .unavailable)
}

extension Screen {
    func field(_ id: String) -> Field? { fields.first { $0.id == id } }

    var texts: [String] {
        elements.compactMap { if case .text(let text, _) = $0 { text } else { nil } }
    }

    var banners: [Banner] {
        elements.compactMap { if case .banner(let banner) = $0 { banner } else { nil } }
    }

    var buttons: [Button] {
        elements.compactMap { if case .button(let button) = $0 { button } else { nil } }
    }

    /// The screen as the host receives it, to search for anything that must not be there.
    var json: String {
        (try? WireFormat.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
