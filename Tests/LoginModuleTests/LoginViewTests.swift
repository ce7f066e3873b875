import DenKit
import Foundation
import Testing
@testable import LoginModule

@Suite("Login view")
struct LoginViewTests {
    let presenter = MockLoginPresenter()
    typealias ID = LoginViewObject.FieldID

    static let form = LoginViewObject(
        title: "Log in", texts: ["Log in with your Den account."],
        notices: [.init(kind: .info, text: "Welcome.")],
        fields: [.text(ID.username, "Username", value: "alice"),
                 // A view object that (wrongly) carries a password must still not show it.
                 LoginViewObject.Field(id: ID.password, label: "Password", value: "Sesame-Opens-42", isSecret: true)],
        actions: [.init(id: "log-in", label: "Log in", isPrimary: true), .init(id: "create-account", label: "Create account", isPrimary: false)])

    @Test("the page becomes a screen: texts, notices, fields, then buttons; a secret field is a password field, always empty")
    func screen() throws {
        let view = LoginView(presenter: presenter)
        view.display(Self.form)

        let screen = view.screen
        #expect(screen.title == "Log in")
        #expect(screen.texts == ["Log in with your Den account."])
        #expect(screen.banners == [Banner(.info, "Welcome.")])
        #expect(screen.field(ID.username)?.value == "alice")
        let password = try #require(screen.field(ID.password))
        #expect(password.kind == .password)
        #expect(password.value == "")
        #expect(!screen.json.contains("Sesame"))
        #expect(screen.buttons.map(\.role) == [.primary, .secondary])
    }

    @Test("a login error shows as a banner of its kind, and messages under their fields")
    func loginError() {
        let view = LoginView(presenter: presenter)
        view.display(Self.form)
        view.displayLoginError(LoginErrorViewObject(kind: .warning, banner: "Locked for 15 minutes.",
                                                    fieldErrors: [ID.password: "Type your password."]))

        #expect(view.screen.banners.last == Banner(.warning, "Locked for 15 minutes."))
        #expect(view.screen.field(ID.password)?.error == "Type your password.")
        #expect(view.screen.field(ID.username)?.error == nil)
    }

    @Test("a message for a field the page lacks is not lost: it joins the banner")
    func unplacedFieldError() {
        let view = LoginView(presenter: presenter)
        view.display(Self.form)
        view.displayLoginError(LoginErrorViewObject(banner: nil, fieldErrors: [ID.token: "Paste the token."]))

        #expect(view.screen.banners.last == Banner(.error, "Paste the token."))
    }

    @Test("displaying a page again drops the previous login error")
    func displayClearsError() {
        let view = LoginView(presenter: presenter)
        view.display(Self.form)
        view.displayLoginError(LoginErrorViewObject(banner: "Wrong username or password."))

        view.display(Self.form)

        #expect(view.screen.banners == [Banner(.info, "Welcome.")])
    }

    @Test("events go to the presenter: appear, and actions with the form's values as secrets")
    func events() throws {
        let view = LoginView(presenter: presenter)

        view.handle(.appear)
        view.handle(.action(id: "log-in", fields: ["username": "alice", "password": "correct horse", "other": "x"]))
        view.handle(.action(id: "launch", fields: [:]))

        #expect(presenter.appeared == 1)
        #expect(presenter.triggered.count == 2)
        let (action, form) = try #require(presenter.triggered.first)
        #expect(action == .logIn)
        #expect(form == LoginFormInput(username: "alice", password: "correct horse"))
        #expect(presenter.triggered.last?.0 == .unknown("launch"))
    }

    @Test("a form printed, debug-printed or dumped shows no password")
    func formNeverPrintsPasswords() {
        let form = LoginView.form(["username": "alice", "password": "Sesame-Opens-42", "repeat": "Sesame-Opens-42",
                                   "token": "0123abcd0123abcd", "current": "Old-Sesame-41"])
        var dumped = ""
        dump(form, to: &dumped)

        for text in [String(describing: form), String(reflecting: form), "\(form)", dumped] {
            #expect(!text.contains("Sesame"), "\(text)")
            #expect(!text.contains("0123abcd"), "\(text)")
            #expect(text.contains("alice"), "the username is no secret")
        }
    }
}
