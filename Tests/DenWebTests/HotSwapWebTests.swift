import DenTestSupport
import Foundation
import Testing

@Suite("den serve --watch: pages hear of a swap and reload; errors reach them as a banner")
struct HotSwapWebTests {
    @Test("a swap sends a server-sent event, the page then shows v2 with its state; a broken v3 is a problem event and v2 serves on")
    func swapOverHTTP() throws {
        let den = try BuildProducts.require(BuildProducts.den)
        let temp = try TemporaryDirectory("den-serve-watch")
        let plugins = try temp.folder("plugins")
        let fixture = try SwapFixture()
        try fixture.install([], into: plugins)
        var environment = ProcessInfo.processInfo.environment
        environment["DEN_PLUGIN_PATH"] = ""
        let server = try ServedDen(den, arguments: ["serve", "--watch", "--port", "0", "--no-default-modules", "--plugin-dir", plugins.path,
                                                    "--data-dir", temp.path("data").path, "--cache-dir", temp.path("cache").path],
                                   environment: environment)
        defer { server.stop() }
        let port = try #require(server.port, "\(server.printed)")

        // A page of the module, with state: swap/5 then two presses would need a form; the route's start is state enough.
        let first = try RawHTTP.get(port: port, "/swap/5")
        #expect(first.status == 200)
        #expect(first.body.contains("swap v1"))
        #expect(first.body.contains(#"<script src="/_assets/den-dev.js" data-den-module="swap" defer="defer">"#), "the dev script, told the module")
        let cookie = try #require(first.sessionCookie)
        // Press Add twice (the form's token is the session's): count 7.
        let csrf = try #require(first.body.range(of: #"name="_csrf" value=""#).map { String(first.body[$0.upperBound...].prefix { $0 != "\"" }) })
        for _ in 0..<2 {
            let pressed = try RawHTTP.post(port: port, "/_action", form: "_csrf=\(csrf)&_route=swap%2F5&_action=add", cookie: cookie)
            #expect(pressed.status == 303, "\(pressed.head)")
        }
        #expect(try RawHTTP.get(port: port, "/swap/5", cookie: cookie).body.contains("count 7"))
        let script = try RawHTTP.get(port: port, "/_assets/den-dev.js")
        #expect(script.status == 200)
        #expect(script.body.contains("EventSource"))
        #expect(script.head.lowercased().contains("content-security-policy: default-src 'none'"))

        let events = try RawHTTP.EventStream(port: port, path: "/_dev/events")
        #expect(events.wait(for: "retry:"), "the stream opened: \(events.text)")
        try fixture.install(["-DSWAP_VERSION=2"], into: plugins)
        #expect(events.wait(for: #"event: swap\#ndata: {"modules":["swap"]}"#), "\(events.text)")
        let after = try RawHTTP.get(port: port, "/swap/5", cookie: cookie)
        #expect(after.body.contains("swap v2"))
        #expect(after.body.contains("count 7"), "the state came across")

        // A broken v3: the pages get the error, v2 serves on.
        let seen = events.text.count
        try fixture.install(["-DSWAP_VERSION=3", "-DBAD_ABI"], into: plugins)
        #expect(events.wait(for: "event: problem", after: seen), "\(events.text)")
        #expect(events.text.contains("ABI version 99"))
        #expect(events.text.contains("libSwapModule.so"))
        #expect(try RawHTTP.get(port: port, "/swap/5", cookie: cookie).body.contains("swap v2"))
        // A page opened now hears of the problem at once.
        let late = try RawHTTP.EventStream(port: port, path: "/_dev/events")
        #expect(late.wait(for: "ABI version 99"))
        // Fixed: the problem clears and the pages reload.
        let fixedFrom = events.text.count
        try fixture.install(["-DSWAP_VERSION=4"], into: plugins)
        #expect(events.wait(for: "event: clear", after: fixedFrom), "\(events.text)")
        #expect(try RawHTTP.get(port: port, "/swap/5", cookie: cookie).body.contains("swap v4"))

        // Ctrl-C (SIGTERM here) ends den although pages still listen.
        let stopped = Date()
        server.stop()
        #expect(Date().timeIntervalSince(stopped) < 20)
        #expect(server.process.terminationStatus == 0)
    }

    @Test("plain den serve has no event stream and no dev script")
    func plainServeHasNone() throws {
        let den = try BuildProducts.require(BuildProducts.den)
        let temp = try TemporaryDirectory("den-serve-plain")
        let plugins = try temp.folder("plugins")
        try SwapFixture().install([], into: plugins)
        var environment = ProcessInfo.processInfo.environment
        environment["DEN_PLUGIN_PATH"] = ""
        let server = try ServedDen(den, arguments: ["serve", "--port", "0", "--no-default-modules", "--plugin-dir", plugins.path,
                                                    "--data-dir", temp.path("data").path, "--cache-dir", temp.path("cache").path],
                                   environment: environment)
        defer { server.stop() }
        let port = try #require(server.port)
        let page = try RawHTTP.get(port: port, "/swap")
        #expect(page.status == 200)
        #expect(!page.body.contains("den-dev.js"))
        #expect(try RawHTTP.get(port: port, "/_dev/events").status == 404)
        #expect(try RawHTTP.get(port: port, "/_assets/den-dev.js").status == 404)
    }
}

@Suite("den dev: a saved source file rebuilds its module; a failed build reaches the pages")
struct DevCommandTests {
    @Test("a broken build's errors go to the terminal and, as a problem event, to every page")
    func failedBuildIsShown() throws {
        let den = try BuildProducts.require(BuildProducts.den)
        let temp = try TemporaryDirectory("den-dev")
        // A checkout whose manifest does not compile: swift build fails at once, naming the error.
        let checkout = try temp.folder("checkout")
        let sources = try temp.folder("checkout/Plugins/Greeter/View")
        try Data("// swift-tools-version: 6.0\nthis is not a manifest\n".utf8).write(to: checkout.appendingPathComponent("Package.swift"))
        let source = sources.appendingPathComponent("GreeterView.swift")
        try Data("let greeting = 1\n".utf8).write(to: source)
        let plugins = try temp.folder("plugins")
        try SwapFixture().install([], into: plugins)
        var environment = ProcessInfo.processInfo.environment
        environment["DEN_PLUGIN_PATH"] = ""
        let server = try ServedDen(den, arguments: ["dev", "--package-path", checkout.path, "--port", "0", "--no-default-modules",
                                                    "--plugin-dir", plugins.path, "--data-dir", temp.path("data").path,
                                                    "--cache-dir", temp.path("cache").path], environment: environment,
                                    readyLine: "a saved file rebuilds its module") // the source watcher starts after den listens
        defer { server.stop() }
        let port = try #require(server.port, "\(server.printed)")
        #expect(server.printed.contains("a saved file rebuilds its module"), "\(server.printed)")
        let events = try RawHTTP.EventStream(port: port, path: "/_dev/events")
        #expect(events.wait(for: "retry:"))
        try Data("let greeting = 2\n".utf8).write(to: source)
        #expect(events.wait(for: "swift build --product GreeterModule failed", seconds: 120), "\(events.text)")
        #expect(events.text.contains("old version keeps serving"))
        // The page still serves.
        #expect(try RawHTTP.get(port: port, "/swap").body.contains("swap v1"))
    }
}
