import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

/// A C module (Tests/Fixtures/DenFixtureMisbehaving) that does everything wrong an instance can
/// do; the session must stay usable and say what happened.
@Suite("Module instances that misbehave")
struct MisbehavingModuleTests {
    let folder: PluginFolder
    let runtime: DenRuntime

    init() throws {
        folder = try PluginFolder()
        try folder.add("AboutModule")
        try folder.add("DenFixtureMisbehaving")
        runtime = try folder.runtime()
    }

    func bannerTexts(_ view: SessionView) -> [String] {
        view.screen.elements.compactMap { if case .banner(let banner) = $0, banner.kind == .error { banner.text } else { nil } }
    }

    @Test("a redirect loop is stopped and undone: the user stays where they were")
    func redirectLoop() {
        let session = runtime.makeSession()
        _ = session.open("about")
        let view = session.open("loop")
        #expect(view.route == "about")
        #expect(view.backStack.isEmpty)
        #expect(view.errors.count == 1)
        #expect(bannerTexts(view).contains { $0.contains("redirect loop") })

        // Not trapped: About still works.
        let after = session.send(action: "website", fields: [:])
        #expect(after.route == "about")
        #expect(after.errors.isEmpty)
    }

    @Test("a loop opened as the first screen keeps that one screen, and going elsewhere works")
    func loopAsFirstScreen() {
        let session = runtime.makeSession()
        let view = session.open("loop")
        #expect(view.route == "loop")
        #expect(view.backStack.isEmpty)
        #expect(!view.errors.isEmpty)
        let next = session.replace("about")
        #expect(next.route == "about")
        #expect(next.backStack.isEmpty)
    }

    @Test("a reply that is not JSON becomes an error naming the module, not a crash")
    func garbageReply() {
        let view = runtime.makeSession().open("garbage-reply")
        #expect(view.errors.count == 1)
        #expect(view.errors.first?.contains("module 'misbehaving' sent a reply this host cannot read") == true)
    }

    @Test("a screen from a newer format version is refused with both versions named")
    func futureScreen() {
        let view = runtime.makeSession().open("future-screen")
        #expect(view.errors.first?.contains("screen version 99") == true)
        #expect(view.errors.first?.contains("up to version 1") == true)
    }

    @Test("a builder's refusal is shown with the module's own message")
    func builderFails() {
        let view = runtime.makeSession().open("build-fails")
        #expect(view.isHostScreen)
        #expect(view.screen.title == "Cannot open build-fails")
        #expect(bannerTexts(view).contains { $0.contains("rejected the input: the widget factory is closed today") })
    }

    @Test("an action that fails keeps the screen and shows the module's message")
    func failingAction() {
        let session = runtime.makeSession()
        let before = session.open("fails-on-tap")
        #expect(before.errors.isEmpty)
        let after = session.send(action: "tap", fields: ["name": "x"])
        #expect(after.route == "fails-on-tap")
        #expect(after.errors.first?.contains("the tap handler fell over") == true)
        #expect(bannerTexts(after).count == 1)
    }

    @Test("a lenient reply decodes: no effects key, an unknown element, unknown style and role, a bare field")
    func lenientReply() {
        let view = runtime.makeSession().open("fails-on-tap")
        #expect(view.screen.title == "Fragile")
        #expect(view.screen.elements.contains(.unsupported(type: "hologram")))
        #expect(view.screen.elements.contains(.text("Tap me", style: .body)))
        #expect(view.screen.elements.contains(.button(Button(id: "tap", label: "Tap", role: .secondary))))
        #expect(view.screen.fields == [Field(id: "name", label: "Name")])
    }
}
