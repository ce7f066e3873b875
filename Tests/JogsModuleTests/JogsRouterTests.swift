import DenKit
import Testing
@testable import JogsModule

@Suite("Jogs router")
struct JogsRouterTests {
    @Test("a saved new jog replaces the form with its detail screen")
    func showSavedJog() {
        let navigation = Navigation()
        JogsRouter(navigation: navigation).showSavedJog(id: 42)
        #expect(navigation.drain() == [.replace("jogs/42")])
    }

    @Test("a deleted jog's screen goes to the list, not to whatever screen is below")
    func closeDeletedJog() {
        let navigation = Navigation()
        JogsRouter(navigation: navigation).closeDeletedJog()
        #expect(navigation.drain() == [.replace("jogs")])
    }

    @Test("the login route carries the way back, percent-encoded")
    func loginRoute() {
        #expect(JogsRoutes.login(next: "jogs") == "login?next=jogs")
        #expect(JogsRoutes.login(next: "jogs?from=2026-01-01&to=2026-01-31")
                == "login?next=jogs%3Ffrom%3D2026-01-01%26to%3D2026-01-31")
        #expect(JogsRoutes.login(next: "jogs/é") == "login?next=jogs%2F%C3%A9")
    }
}
