import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

@Suite("A UI session's navigation stack")
struct NavigationSessionTests {
    let folder: PluginFolder
    let runtime: DenRuntime

    init() throws {
        folder = try PluginFolder()
        try folder.add("AboutModule")
        runtime = try folder.runtime()
    }

    @Test("open pushes a screen built by the module for the route")
    func openPushes() {
        let session = runtime.makeSession()
        let view = session.open("about")
        #expect(view.route == "about")
        #expect(view.moduleID == "about")
        #expect(view.screen.title == "About Den")
        #expect(!view.canGoBack)

        let second = session.open("about")
        #expect(second.backStack == ["about"])
    }

    @Test("the module's Router drives the stack: Close goes back")
    func closeGoesBack() {
        let session = runtime.makeSession()
        _ = session.open("about")
        _ = session.open("about")
        let top = session.open("about")
        #expect(top.backStack == ["about", "about"])

        let afterClose = session.send(action: "close", fields: [:])
        #expect(afterClose.route == "about")
        #expect(afterClose.backStack == ["about"])
    }

    @Test("a Not found screen is shown but never becomes a back-stack entry")
    func notFoundIsNotPushed() {
        let session = runtime.makeSession()
        _ = session.open("about")
        let missing = session.open("nowhere")
        #expect(missing.screen.title == "Not found")
        #expect(missing.backStack == ["about"], "back from Not found returns to About")

        let next = session.open("about")
        #expect(next.backStack == ["about"], "what is opened next takes the Not found screen's place")
        let back = session.back()
        #expect(back.route == "about")
        #expect(!back.canGoBack)

        _ = session.open("nowhere")
        let fromMissing = session.back()
        #expect(fromMissing.route == "about")
        #expect(fromMissing.moduleID == "about")
    }

    @Test("going back from the first screen changes nothing and says so")
    func backAtBottom() {
        let session = runtime.makeSession()
        _ = session.open("about")
        let view = session.back()
        #expect(view.route == "about")
        #expect(view.notices.contains { $0.contains("nothing to go back to") })
    }

    @Test("replace swaps the top screen without growing the stack")
    func replace() {
        let session = runtime.makeSession()
        _ = session.open("about")
        _ = session.open("nowhere")
        let view = session.replace("about")
        #expect(view.route == "about")
        #expect(view.backStack == ["about"])
    }

    @Test("an open_url effect reaches the front-end once")
    func openURL() {
        let session = runtime.makeSession()
        _ = session.open("about")
        let view = session.send(action: "website", fields: [:])
        #expect(view.openURLs.count == 1)
        #expect(view.openURLs.first?.hasPrefix("https://") == true)
        #expect(session.back().openURLs.isEmpty)
    }

    @Test("an unknown route gets a Not found screen naming it and listing real screens")
    func notFound() {
        let view = runtime.makeSession().open("jogs/42?sort=date")
        #expect(view.moduleID == nil)
        #expect(view.screen.title == "Not found")
        let texts = view.screen.elements.compactMap { element -> String? in
            if case .banner(let banner) = element { banner.text } else { nil }
        }
        #expect(texts.contains { $0.contains("jogs/42") })
        #expect(view.screen.elements.contains { element in
            if case .list(let list) = element { list.items.contains { $0.route == "about" } } else { false }
        })
    }

    @Test("a malformed route is a screen, never a crash", arguments: ["", "%zz", "a//b", String(repeating: "x", count: 5000), "\u{0}"])
    func malformed(route: String) {
        let view = runtime.makeSession().open(route)
        #expect(view.moduleID == nil)
        #expect(view.screen.title == "Not found")
    }

    @Test("an unknown action leaves the module's screen in place")
    func unknownAction() {
        let session = runtime.makeSession()
        let before = session.open("about")
        let after = session.send(action: "no-such-button", fields: ["x": "1"])
        #expect(after.screen == before.screen)
        #expect(after.route == "about")
    }

    @Test("the module sees the host's plugin list through the plugins.list service")
    func pluginsListService() {
        let view = runtime.makeSession().open("about")
        let listed = view.screen.elements.contains { element in
            if case .list(let list) = element { list.items.contains { $0.title == "about 1.0.0" } } else { false }
        }
        #expect(listed)
    }
}
