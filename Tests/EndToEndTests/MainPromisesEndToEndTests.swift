import DenTestSupport
import Foundation
import Testing

/// Main keeps its promises (issue 7, item 6), seen through the built `den`.
@Suite("Main keeps its promises, end to end")
struct MainPromisesEndToEndTests {
    @Test("deep links accept what the amount field accepts", arguments: [
        ("convert/.5/usd/eur", "0.5 USD = "), ("convert/5./usd/eur", "5 USD = "), ("convert/1,5/usd/eur", "1.5 USD = "),
        ("convert/05/usd/eur", "5 USD = "),
    ])
    func deepLinkAccepted(route: String, shown: String) throws {
        let result = try DenCommand().run(["render", route])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(shown), "\(result.stdout)")
    }

    @Test("deep links refuse what the amount field refuses, with Main's own message", arguments: [
        ("00", "no second leading zero"), ("007", "no second leading zero"), ("1e3", "'e' is not allowed"),
        ("-5", "'-' is not allowed"), ("1.2.3", "only one decimal separator"),
        ("1234567890123456", "at most 15 digits before the decimal separator"),
        ("0.1234567", "at most 6 digits after the decimal separator"),
    ])
    func deepLinkRefused(amount: String, reason: String) throws {
        let result = try DenCommand().run(["render", "convert/\(amount)/usd/eur"])
        #expect(result.status == 1)
        let flat = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("The link's amount '\(amount)' was not accepted: \(reason)"), "\(result.stdout)")
        #expect(!flat.contains("No module serves"))
    }

    @Test("a fetched document that is not the ECB's set, rates or date is refused whole, saying why", arguments: [
        ("<Cube currency='JPY' rate='176.99'/>", "", "missing JPY"),
        ("<Cube currency='USD' rate='1.1225'/>", "<Cube currency='USD' rate='1.1225'/><Cube currency='XAU' rate='0.0004'/>",
         "not quoted by the ECB: XAU"),
        ("time='2026-10-02'", "time='2999-10-02'", "reference date 2999-10-02 is not plausible"),
        ("rate='1.1225'", "rate='0.0000000001'", "rate of USD is 0.0000000001 per euro"),
    ])
    func implausibleRates(target: String, replacement: String, said: String) throws {
        let den = try DenCommand()
        let files = try den.temp.folder("rates")
        let original = try String(contentsOf: MainEndToEndTests.ecbFile, encoding: .utf8)
        try original.replacingOccurrences(of: target, with: replacement)
            .write(to: files.appendingPathComponent("odd.xml"), atomically: true, encoding: .utf8)
        let server = try StubHTTPServer(filesDirectory: files)
        defer { server.stop() }
        _ = try den.run(["config", "set", "main", "rates_url", server.url("/files/odd.xml")])
        // Main asks for the ECB's host only: the operator adds the stub server's (docs/PERMISSIONS.md).
        #expect(try den.run(["modules", "grant", "main", "--http", "127.0.0.1", "--yes"]).status == 0)
        let session = try den.run(["run", "main"], input: "reload\nquit\n")
        let after = try #require(session.stdout.components(separatedBy: "> reload").last)
        let flat = after.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("Could not load rates from"))
        #expect(flat.contains(said), "\(after)")
        #expect(flat.contains("1 USD = 0.890868 EUR · ECB 2026-10-02"), "still the full bundled snapshot")
        #expect(flat.contains("JPY"))
        #expect(!flat.contains("XAU") || said.contains("XAU"))
    }

    @Test("a saved conversion that cannot come back is never dropped silently")
    func savedNotDropped() throws {
        let den = try DenCommand()
        // A conversion saved with a currency today's rates do not quote (as after an older
        // rates file): the terminal keeps Main's session values across runs in den's own namespace.
        let folder = den.temp.path("data")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try den.run(["run", "main"], input: "set amount 1000\nset from jpy\nset to gbp\nconvert\nquit\n")
        let database = folder.appendingPathComponent("storage.sqlite").path
        let sql = "UPDATE entries SET value = replace(value, 'JPY', 'XAU') WHERE namespace = '@den.terminal' AND key = 'values';"
        let update = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), [database, sql])
        try #require(update.status == 0, "\(update.stderr)")
        let result = try den.run(["render", "main"])
        let flat = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("Your last conversion, 1000 XAU → GBP, could not be restored: XAU is not in the rates of 2026-10-02"),
                "\(result.stdout)")
        #expect(flat.contains("The converter shows 100 USD → EUR instead."))
    }

    @Test("a banner describes the latest action only")
    func latestActionOnly() throws {
        let den = try DenCommand()
        _ = try den.run(["config", "set", "main", "rates_url", ""])
        let session = try den.run(["run", "main"], input: "reload\nconvert\nswap\ninfo\nclose\nquit\n")
        let steps = session.stdout.components(separatedBy: "\n> ")
        #expect(steps.count == 7)
        #expect(steps[1].contains("stay offline"))
        for step in steps[2...] { #expect(!step.contains("stay offline"), "\(step)") }
    }

    @Test("the converter converts as the user types: `set` sends a change and Main recomputes; Convert stays")
    func convertsAsYouType() throws {
        let den = try DenCommand()
        let session = try den.run(["run", "main"], input: "set amount 200\nset to jpy\nset amount 007\nconvert\nquit\n")
        let steps = session.stdout.components(separatedBy: "\n> ")
        #expect(steps.count == 6)
        #expect(steps[1].contains("200 USD = \(try MainEndToEndTests.expected(200, "USD", "EUR")) EUR"), "\(steps[1])")
        #expect(steps[2].contains("200 USD = \(try MainEndToEndTests.expected(200, "USD", "JPY")) JPY"))
        #expect(steps[3].contains("no second leading zero"), "refused like the field")
        #expect(steps[3].contains("200 USD = "))
        #expect(steps[4].contains("200 USD = "), "Convert still works")
        // A change is not an action: only Convert saved; the restart shows what it saved.
        #expect(try den.run(["render", "main"]).stdout.contains("200 USD = "))
    }
}
