import DenTestSupport
import Foundation
import Testing

/// A third party's module, written in C against den_module.h alone (with cJSON), built here with
/// its Makefile, is picked up by the already-built `den`.
@Suite("A plain C module built outside the package")
struct CPluginEndToEndTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func buildCounter(into den: DenCommand) throws -> URL {
        let folder = try den.temp.folder("c-plugins")
        let make = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), [
            "make", "-s", "-C", Self.packageRoot.appendingPathComponent("Examples/CounterC").path, "O=\(folder.path)",
        ])
        #expect(make.status == 0, "make failed (is libcjson-dev installed? Scripts/setup.sh installs it): \(make.stdout) \(make.stderr)")
        return folder
    }

    @Test("make builds it, and den renders its screen with a typed route parameter")
    func render() throws {
        let den = try DenCommand()
        let folder = try buildCounter(into: den)
        let result = try den.run(["render", "counter/41", "--plugin-dir", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Counter (C)"))
        #expect(result.stdout.contains("\n41\n"), "\(result.stdout)")
    }

    @Test("the compile and link command docs/WRITING_MODULES.md gives builds a module den loads")
    func documentedCommand() throws {
        let den = try DenCommand()
        let doc = try String(contentsOf: Self.packageRoot.appendingPathComponent("docs/WRITING_MODULES.md"), encoding: .utf8)
        let command = try #require(doc.split(separator: "\n").first { $0.hasPrefix("cc ") && $0.contains("counter_module.c") },
                                   "the doc gives no cc command")
        let folder = try den.temp.folder("documented")
        // Run as written, from the checkout, writing into a folder of its own.
        let run = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"),
                                        ["-c", "cd '\(Self.packageRoot.path)' && \(command.replacingOccurrences(of: "-o libCounterModule.so", with: "-o '\(folder.path)/libCounterModule.so'"))"])
        #expect(run.status == 0, "\(command)\n\(run.stdout)\(run.stderr)")
        let result = try den.run(["render", "counter/41", "--plugin-dir", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\n41\n"), "\(result.stdout)")
    }

    @Test("its manifest is read from the file: den plugins --inspect lists its routes")
    func manifest() throws {
        let den = try DenCommand()
        let folder = try buildCounter(into: den)
        let result = try den.run(["plugins", "--inspect", folder.appendingPathComponent("libCounterModule.so").path])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("id: counter"), "\(result.stdout)")
        #expect(result.stdout.contains("counter/<int:start>"), "\(result.stdout)")
    }

    @Test("a start its builder refuses shows the builder's message on a Cannot open screen")
    func builderError() throws {
        let den = try DenCommand()
        let folder = try buildCounter(into: den)
        let result = try den.run(["render", "counter/2000000000", "--plugin-dir", folder.path])
        #expect(result.status == 1)
        // The terminal wraps long lines; the message is whole once they are joined.
        let text = result.stdout.replacingOccurrences(of: "\n", with: " ")
        #expect(text.contains("the counter starts from 0 to 1000000000, not 2000000000"), "\(result.stdout)")
    }

    @Test("it reads the step field, saves through the host's storage, navigates to About and back")
    func interactive() throws {
        let den = try DenCommand()
        let folder = try buildCounter(into: den)
        try den.temp.copy(BuildProducts.require(BuildProducts.library("AboutModule")), into: folder)
        let result = try den.run(["run", "counter/1", "--plugin-dir", folder.path],
                                 input: "set step 5\nadd\nsave\nabout\nclose\nset step x\nadd\nquit\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\n6\n"), "1 plus a step of 5: \(result.stdout)")
        #expect(result.stdout.contains("Saved 6."), "\(result.stdout)")
        #expect(result.stdout.contains("counter 1.1.0"), "the About screen, reached by a navigate effect, lists the C module")
        #expect(result.stdout.contains("Step must be a whole number from 1 to 1000; the count stays 6."), "\(result.stdout)")

        // The saved count comes back through storage.get when no start is given.
        let again = try den.run(["render", "counter", "--plugin-dir", folder.path])
        #expect(again.stdout.contains("\n6\n"), "\(again.stdout)")
    }

    @Test("its Back button is a back effect: from About, open the counter, press Back, and About is on top again")
    func back() throws {
        let den = try DenCommand()
        let folder = try buildCounter(into: den)
        try den.temp.copy(BuildProducts.require(BuildProducts.library("AboutModule")), into: folder)
        let result = try den.run(["run", "about", "--plugin-dir", folder.path], input: "go counter/3\nclose\nquit\n")
        #expect(result.status == 0, "\(result.stderr)")
        let counter = try #require(result.stdout.range(of: "Counter (C)", options: .backwards), "\(result.stdout)")
        let about = try #require(result.stdout.range(of: "About Den", options: .backwards), "\(result.stdout)")
        #expect(about.lowerBound > counter.lowerBound, "About is shown again after the counter: \(result.stdout)")
    }
}
