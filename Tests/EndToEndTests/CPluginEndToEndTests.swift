import DenTestSupport
import Foundation
import Testing

/// A third party's module, written in C against den_module.h alone and compiled here with the
/// system C compiler, is picked up by the already-built `den`.
@Suite("A plain C module built outside the package")
struct CPluginEndToEndTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func buildCounter(into den: DenCommand) throws -> URL {
        let folder = try den.temp.folder("c-plugins")
        let output = folder.appendingPathComponent("libCounterModule.so")
        let compile = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), [
            "cc", "-shared", "-fPIC", "-O2", "-Wall", "-Werror",
            "-I", Self.packageRoot.appendingPathComponent("Sources/CDenABI/include").path,
            Self.packageRoot.appendingPathComponent("Examples/CounterC/counter_module.c").path,
            "-o", output.path,
        ])
        #expect(compile.status == 0, "cc failed: \(compile.stderr)")
        return folder
    }

    @Test("den renders its screen with a typed route parameter")
    func render() throws {
        let den = try DenCommand()
        let folder = try buildCounter(into: den)
        let result = try den.run(["render", "counter/41", "--plugin-dir", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Counter (C)"))
        #expect(result.stdout.contains("\n41\n"))
    }

    @Test("its buttons work in den run, and it sits beside a Swift module")
    func interactive() throws {
        let den = try DenCommand()
        let folder = try buildCounter(into: den)
        try den.temp.copy(BuildProducts.require(BuildProducts.library("AboutModule")), into: folder)
        let result = try den.run(["run", "counter/1", "--plugin-dir", folder.path], input: "1\nadd\ngo about\nquit\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("\n3\n"), "two presses from 1 make 3")
        #expect(result.stdout.contains("counter 1.0.0"), "About lists the C module")
    }
}
