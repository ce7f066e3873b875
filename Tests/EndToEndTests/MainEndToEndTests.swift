import DenTestSupport
import Foundation
import Testing

/// The Main module (libMainModule.so) driven through the real `den` binary.
@Suite("The currency converter, end to end")
struct MainEndToEndTests {
    static let ecbFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/eurofxref-daily-2026-10-02.xml")

    /// The rate of one currency per euro, read straight from the ECB file.
    static func rate(_ code: String) throws -> Decimal {
        if code == "EUR" { return 1 }
        let xml = try String(contentsOf: ecbFile, encoding: .utf8)
        let marker = "currency='\(code)' rate='"
        let start = try #require(xml.range(of: marker)).upperBound
        let text = xml[start...].prefix { $0 != "'" }
        return try #require(Decimal(string: String(text)))
    }

    /// amount × to ÷ from, truncated to cents, ".00" dropped but "x.50" kept: the seed's rule,
    /// computed independently of Main.
    static func expected(_ amount: Decimal, _ from: String, _ to: String) throws -> String {
        var value = amount * (try rate(to)) / (try rate(from))
        var truncated = Decimal()
        NSDecimalRound(&truncated, &value, 2, .down)
        let text = "\(truncated)"
        guard let dot = text.firstIndex(of: ".") else { return text }
        return text.count - text.distance(from: text.startIndex, to: dot) == 2 ? text + "0" : text
    }

    @Test("den render main shows the converter on the bundled ECB snapshot, offline")
    func renderMain() throws {
        let result = try DenCommand().run(["render", "main"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 USD = 0.890868 EUR · ECB 2026-10-02"))
        #expect(result.stdout.contains("100 USD = \(try Self.expected(100, "USD", "EUR")) EUR"))
        #expect(result.stdout.contains("bundled ECB snapshot"))
    }

    @Test("the deep link opens Main with its values, codes in any case")
    func deepLink() throws {
        let result = try DenCommand().run(["render", "convert/250/usd/jpy"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("250 USD = \(try Self.expected(250, "USD", "JPY")) JPY"))
    }

    @Test("an unknown currency in a deep link gets a message listing the valid codes")
    func unknownCurrency() throws {
        let result = try DenCommand().run(["render", "convert/1/usd/xyz"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("unknown currency 'xyz'"))
        for code in ["AUD", "EUR", "USD", "ZAR"] { #expect(result.stdout.contains(code)) }
    }

    @Test("the last currencies and amount survive a restart, whichever button sent them",
          arguments: ["convert", "reload", "info", "swap"])
    func savedValues(button: String) throws {
        let den = try DenCommand()
        let session = try den.run(["run", "main"], input: "set amount 42,5\nset to jpy\n\(button)\nquit\n")
        #expect(session.status == 0)
        let restarted = try den.run(["render", "main"])
        let (from, to) = button == "swap" ? ("JPY", "USD") : ("USD", "JPY")
        #expect(restarted.stdout.contains("42.5 \(from) = \(try Self.expected(42.5, from, to)) \(to)"), "\(restarted.stdout)")
    }

    @Test("bad input is refused with a message and the previous amount stays",
          arguments: ["0.11.2", "00", "12a", "-5"])
    func badInput(amount: String) throws {
        let result = try DenCommand().run(["run", "main"], input: "set amount \(amount)\nconvert\nquit\n")
        #expect(result.status == 0)
        // The amount field asks for change events, so `set` already shows the refusal.
        let afterSet = try #require(result.stdout.components(separatedBy: "> set amount").last?.components(separatedBy: "> convert").first)
        #expect(afterSet.contains("100 USD = "), "the previous amount is kept")
        #expect(afterSet.contains("! "), "the amount field shows an error")
        let afterConvert = try #require(result.stdout.components(separatedBy: "> convert").last)
        #expect(afterConvert.contains("100 USD = "), "the previous amount is kept")
    }

    @Test("Info opens About through the route, and Close comes back")
    func info() throws {
        let result = try DenCommand().run(["run", "main"], input: "info\nclose\nquit\n")
        let parts = result.stdout.components(separatedBy: "\n> ")
        #expect(parts.count == 4)
        #expect(parts[1].contains("About Den"))
        #expect(parts[2].contains("Currency converter"))
    }

    @Test("live rates: reload fetches them, a restart uses the cache, a broken source falls back with a banner")
    func liveRates() throws {
        let den = try DenCommand()
        let files = try den.temp.folder("rates")
        let original = try String(contentsOf: Self.ecbFile, encoding: .utf8)
        try original.replacingOccurrences(of: "2026-10-02", with: "2026-10-05")
            .replacingOccurrences(of: "rate='1.1225'", with: "rate='1.2500'")
            .write(to: files.appendingPathComponent("good.xml"), atomically: true, encoding: .utf8)
        try String(original.prefix(900)).write(to: files.appendingPathComponent("partial.xml"), atomically: true, encoding: .utf8)
        let server = try StubHTTPServer(filesDirectory: files)
        defer { server.stop() }

        #expect(try den.run(["config", "set", "main", "rates_url", server.url("/files/good.xml")]).status == 0)
        // Main asks for the ECB's host only: the operator adds the stub server's (docs/PERMISSIONS.md).
        #expect(try den.run(["modules", "grant", "main", "--http", "127.0.0.1", "--yes"]).status == 0)
        let reload = try den.run(["run", "main"], input: "reload\nquit\n")
        let afterReload = try #require(reload.stdout.components(separatedBy: "> reload").last)
        #expect(afterReload.contains("Rates updated from"))
        #expect(afterReload.contains("1 USD = 0.800000 EUR · ECB 2026-10-05"))

        // No network at start: the cached download is used.
        server.stop()
        let restarted = try den.run(["render", "main"])
        #expect(restarted.stdout.contains("ECB 2026-10-05"))

        // A source that fails keeps the cached rates and says so.
        let failing = try den.run(["run", "main"], input: "reload\nquit\n")
        let afterFailure = try #require(failing.stdout.components(separatedBy: "> reload").last)
        #expect(afterFailure.contains("Could not load rates from"))
        #expect(afterFailure.contains("ECB 2026-10-05"))
    }

    @Test("a partial document from the source is rejected, never half-applied")
    func partialDocument() throws {
        let den = try DenCommand()
        let files = try den.temp.folder("rates")
        let original = try String(contentsOf: Self.ecbFile, encoding: .utf8)
        try String(original.prefix(900)).write(to: files.appendingPathComponent("partial.xml"), atomically: true, encoding: .utf8)
        let server = try StubHTTPServer(filesDirectory: files)
        defer { server.stop() }

        _ = try den.run(["config", "set", "main", "rates_url", server.url("/files/partial.xml")])
        // Main asks for the ECB's host only: the operator adds the stub server's (docs/PERMISSIONS.md).
        #expect(try den.run(["modules", "grant", "main", "--http", "127.0.0.1", "--yes"]).status == 0)
        let result = try den.run(["run", "main"], input: "reload\nquit\n")
        let after = try #require(result.stdout.components(separatedBy: "> reload").last)
        #expect(after.contains("Could not load rates from"))
        #expect(after.contains("1 USD = 0.890868 EUR · ECB 2026-10-02"), "still the full bundled snapshot")
    }

    @Test("den config shows, sets and removes a module's settings")
    func config() throws {
        let den = try DenCommand()
        #expect(try den.run(["config", "show", "main"]).stdout.contains("rates_url = https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml  (default)"))
        _ = try den.run(["config", "set", "main", "rates_url", "https://example.invalid/rates.xml"])
        #expect(try den.run(["config", "show", "main"]).stdout.contains("rates_url = https://example.invalid/rates.xml"))
        #expect(try den.run(["config", "unset", "main", "rates_url"]).stdout.contains("removed"))
        let bad = try den.run(["config", "set", "Not A Module", "x", "y"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("no module 'Not A Module' is loaded"))
    }
}
