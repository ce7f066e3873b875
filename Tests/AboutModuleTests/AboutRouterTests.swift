@testable import AboutModule
import DenKit
import Testing

@Suite("About router")
struct AboutRouterTests {
    let navigation = Navigation()

    @Test("close records a back effect")
    func closeIsBack() {
        AboutRouter(navigation: navigation).close()

        #expect(navigation.drain() == [.back])
    }

    @Test("opening the website records an open_url effect with that URL")
    func websiteIsOpenURL() {
        AboutRouter(navigation: navigation).open(website: "https://example.org/lair")

        #expect(navigation.drain() == [.openURL("https://example.org/lair")])
    }

    @Test("effects are recorded in the order they were asked for, and drained once")
    func order() {
        let router = AboutRouter(navigation: navigation)
        router.open(website: "https://a.example")
        router.close()

        #expect(navigation.drain() == [.openURL("https://a.example"), .back])
        #expect(navigation.drain().isEmpty)
    }
}
