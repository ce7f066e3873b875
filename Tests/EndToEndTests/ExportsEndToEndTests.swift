import DenTestSupport
import Foundation
import Testing

/// `den call` and `den exports` of the built binary, against the bundled modules, the C example
/// compiled with cc, and the C fixtures that export (and misdeclare) functions.
@Suite("den call and den exports")
struct ExportsEndToEndTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("den call main.convert 100 USD EUR prints 89.08; --json gives the typed result")
    func convert() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["MainModule"])
        let result = try den.run(["call", "--no-default-modules", "--plugin-dir", folder.path, "main.convert", "100", "USD", "EUR"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "89.08\n")
        let json = try den.run(["call", "--json", "--no-default-modules", "--plugin-dir", folder.path, "main.convert", "12.5", "eur", "usd"])
        #expect(json.stdout == #"{"name":"main.convert","result":"14.03","type":"string"}"# + "\n", "\(json.stderr)")
        let date = try den.run(["call", "--no-default-modules", "--plugin-dir", folder.path, "main.rates_date"])
        #expect(date.stdout == "2026-10-02\n")
    }

    @Test("the bundled den finds the bundled modules' exports without options")
    func bundled() throws {
        let den = try DenCommand()
        let result = try den.run(["call", "main.convert", "100", "USD", "EUR"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "89.08\n")
        let list = try den.run(["exports"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("main.convert(f64 amount, string from, string to) -> string\n    module main · Converts an amount"), "\(list.stdout)")
        #expect(list.stdout.contains("jogs.weekly_totals() -> string"))
        // A wrong module name names the modules that do export, though none of them is loaded
        // yet (they are known from their manifests) and nothing else was loaded to say so.
        let wrong = try den.run(["call", "nosuch.fn"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr == "Error: no export 'nosuch.fn': no module 'nosuch' exports anything; modules with exports: jogs, main (den exports lists them; den plugins says whether a module failed to load)\n",
                "\(wrong.stderr)")
    }

    @Test("wrong count or type exits 64 showing the signature; a refused value or unknown export exits 1")
    func errors() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["MainModule"])
        func call(_ words: String...) throws -> ProcessResult {
            try den.run(["call", "--no-default-modules", "--plugin-dir", folder.path] + words)
        }
        let count = try call("main.convert", "100", "USD")
        #expect(count.status == 64)
        #expect(count.stderr == "Error: main.convert takes 3 arguments, 2 given; expected main.convert(f64 amount, string from, string to) -> string\n")
        let type = try call("main.convert", "ten", "USD", "EUR")
        #expect(type.status == 64)
        #expect(type.stderr.contains("argument 1 (amount) must be f64, a finite number; 'ten' is not"), "\(type.stderr)")
        let option = try call("main.convert", "1", "USD", "EUR", "--json")
        #expect(option.stderr.contains("options go before the export's name"), "\(option.stderr)")
        let negative = try call("main.convert", "-5", "USD", "EUR")
        #expect(negative.status == 1)
        #expect(negative.stderr == "Error: main.convert failed (DEN_ERR_INVALID_ARGUMENT): the amount -5 is negative; the converter takes amounts from 0 up\n")
        let currency = try call("main.convert", "1", "USD", "XXX")
        #expect(currency.status == 1)
        #expect(currency.stderr.contains("unknown currency 'XXX'; valid codes (any case): AUD"), "\(currency.stderr)")
        let unknown = try call("main.nothing")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no export 'main.nothing': module 'main' exports convert, rates_date"))
        let malformed = try call("convert")
        #expect(malformed.status == 64)
        let none = try den.run(["call"])
        #expect(none.status == 64)
        #expect(none.stderr.contains("name an export"))
    }

    @Test("the C example's export works from den call after its Makefile builds it")
    func counterExample() throws {
        let den = try DenCommand()
        let folder = try den.temp.folder("c-plugins")
        // The example's own Makefile (-Wall -Wextra -Werror, cJSON): what a C author runs.
        let make = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), [
            "make", "-s", "-C", Self.packageRoot.appendingPathComponent("Examples/CounterC").path, "O=\(folder.path)",
        ])
        try #require(make.status == 0, "make failed (is libcjson-dev installed? Scripts/setup.sh installs it): \(make.stdout) \(make.stderr)")
        let added = try den.run(["call", "--no-default-modules", "--plugin-dir", folder.path, "counter.add", "41", "1"])
        #expect(added.stdout == "42\n", "\(added.stderr)")
        let overflow = try den.run(["call", "--no-default-modules", "--plugin-dir", folder.path, "counter.add", "9223372036854775807", "1"])
        #expect(overflow.status == 1)
        #expect(overflow.stderr == "Error: counter.add failed (DEN_ERR_INVALID_ARGUMENT): the counter would overflow: the sum does not fit in an i64\n")
        let list = try den.run(["exports", "--json", "--no-default-modules", "--plugin-dir", folder.path])
        #expect(list.stdout == #"{"exports":[{"module":"counter","name":"counter.add","signature":"(i64 value, i64 step) -> i64","summary":"Adds step to value, refusing an overflow"}]}"# + "\n")
    }

    @Test("jogs.weekly_totals from den call is refused: a CLI call has no UI session")
    func jogsOutsideSession() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["JogsModule"])
        let result = try den.run(["call", "--no-default-modules", "--plugin-dir", folder.path, "jogs.weekly_totals"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("answers only for the user logged in in the calling UI session, and this call has none (den call"), "\(result.stderr)")
    }

    @Test("every type and failure of the C fixture, through the binary")
    func fixture() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureExports"])
        func call(_ words: String...) throws -> ProcessResult {
            try den.run(["call", "--no-default-modules", "--plugin-dir", folder.path] + words)
        }
        #expect(try call("exporter.add", "-5", "2").stdout == "-3\n")
        #expect(try call("exporter.scale", "0.1", "3").stdout == "0.30000000000000004\n")
        #expect(try call("exporter.negate", "false").stdout == "true\n")
        let touched = try call("exporter.touch")
        #expect(touched.status == 0 && touched.stdout.isEmpty)
        let late = try call("exporter.touch", "--json")
        #expect(late.status == 64, "options after the name are arguments")
        #expect(late.stderr.contains("takes 0 arguments, 1 given") && late.stderr.contains("options go before the export's name"), "\(late.stderr)")
        #expect(try den.run(["call", "--json", "--no-default-modules", "--plugin-dir", folder.path, "exporter.touch"]).stdout == #"{"name":"exporter.touch","type":"void"}"# + "\n")
        let escape = try call("exporter.greet", "\u{1B}[2J")
        #expect(escape.stdout == "Hello, ^[[2J!\n", "a module's control characters are made visible")
        let failing = try call("exporter.fail", "it broke")
        #expect(failing.status == 1)
        #expect(failing.stderr == "Error: exporter.fail failed (DEN_ERR_NOT_FOUND): it broke\n")
        let leaking = try call("exporter.no_release")
        #expect(leaking.status == 1)
        #expect(leaking.stderr.contains("without a release function"))
        // The limit only for the call that must pass it; the nap outlasts any delay in noticing it.
        let stuck = try den.run(["call", "--no-default-modules", "--call-timeout", "1", "--plugin-dir", folder.path, "exporter.nap", "60000"])
        #expect(stuck.status == 1)
        #expect(stuck.stderr.contains("exporter.nap did not return within "), "\(stuck.stderr)")
    }

    @Test("each broken declaration rejects the plugin, and den plugins says why",
          arguments: [("duplicate", "export 'twice' was declared twice"),
                      ("malformed", "export 'convert': signature '(f64 amount, text from) -> string' is malformed: parameter 2 has the type 'text'"),
                      ("void_param", "parameter 1 has the type 'void'"),
                      ("bad_name", "export name 'Convert!' is not valid"),
                      ("null_fn", "add_export was called with a NULL"),
                      ("early", "add_export was called before describe")])
    func badDeclarations(mode: String, reason: String) throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureBadExports", "AboutModule"])
        let result = try den.run(["plugins", "--no-default-modules", "--plugin-dir", folder.path],
                                 environment: ["DEN_FIXTURE_BAD_EXPORT": mode])
        #expect(result.stdout.contains("FAILED"), "\(result.stdout)")
        #expect(result.stdout.contains(reason), "\(result.stdout)")
        #expect(result.stdout.contains("fix: fix the export's declaration as the error says"), "\(result.stdout)")
        #expect(result.stdout.contains("active  about"), "the other plugin still loads")
        let call = try den.run(["call", "--no-default-modules", "--plugin-dir", folder.path, "badexports.ok"],
                               environment: ["DEN_FIXTURE_BAD_EXPORT": mode])
        #expect(call.status == 1)
    }

    @Test("a good declaration loads; the registrar kept past den_module_entry refuses add_export")
    func lateDeclaration() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureBadExports"])
        let ok = try den.run(["call", "--no-default-modules", "--plugin-dir", folder.path, "badexports.ok"])
        #expect(ok.stdout == "1\n", "\(ok.stderr)")
        let late = try den.run(["call", "--no-default-modules", "--plugin-dir", folder.path, "badexports.ok"],
                               environment: ["DEN_FIXTURE_BAD_EXPORT": "late"])
        #expect(late.stdout == "1\n", "the late add_export answered DEN_ERR_INVALID_ARGUMENT (1)")
        #expect(late.stderr.contains("called add_export after den_module_entry returned"), "\(late.stderr)")
    }
}
