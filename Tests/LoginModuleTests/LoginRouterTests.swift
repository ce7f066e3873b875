import DenKit
import Testing
@testable import LoginModule

@Suite("Login router")
struct LoginRouterTests {
    let navigation = Navigation()

    @Test("going on after a login replaces the login screen with next, so Back does not return to the form")
    func goOnToNext() {
        LoginRouter(navigation: navigation).goOn(to: nextRoute("jogs/42?sort=date"))

        #expect(navigation.drain() == [.replace("jogs/42?sort=date")])
    }

    @Test("going on without next replaces the login screen with main")
    func goOnToMain() {
        LoginRouter(navigation: navigation).goOn(to: nil)

        #expect(navigation.drain() == [.replace("main")])
    }

    @Test("another login page replaces this one and carries next, percent-encoded as one query value")
    func otherPage() {
        let router = LoginRouter(navigation: navigation)
        router.show(.register, next: nextRoute("jogs/42?sort=date&n=5"))
        router.show(.reset, next: nil)
        router.show(.logIn, next: nextRoute("login/password?next=jogs"))

        #expect(navigation.drain() == [
            .replace("login/register?next=jogs%2F42%3Fsort%3Ddate%26n%3D5"),
            .replace("login/reset"),
            .replace("login?next=login%2Fpassword%3Fnext%3Djogs"),
        ])
    }

    @Test("every page's route is one of the module's patterns")
    func routes() {
        #expect(LoginPage.allCases.map { LoginRoutes.route(for: $0, next: nil) }
            == ["login", "login/register", "login/reset", "login/password"])
        #expect(LoginPage.allCases.allSatisfy { LoginRoutes.page(forPattern: LoginRoutes.pattern(for: $0)) == $0 })
        #expect(LoginRoutes.page(forPattern: "login/other") == nil)
    }
}
