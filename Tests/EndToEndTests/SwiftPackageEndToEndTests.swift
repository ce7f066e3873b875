import DenTestSupport
import Foundation
import Testing

/// A third party's Swift module, in its own package that depends on DenKit alone
/// (Examples/Greeter), built here with `swift build` and loaded by the already-built `den`.
@Suite("A Swift module built in its own package")
struct SwiftPackageEndToEndTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Greeter")

    @Test("it builds against DenKit alone and den serves its routes beside the bundled ones")
    func buildAndRun() throws {
        let den = try DenCommand()
        let scratch = den.temp.path("greeter-build")
        let build = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), [
            "swift", "build", "--package-path", Self.example.path, "--scratch-path", scratch.path,
        ], timeout: 900)
        #expect(build.status == 0, "swift build failed: \(build.stdout.suffix(2000)) \(build.stderr.suffix(2000))")
        let library = scratch.appendingPathComponent("debug/libGreeterModule.so")
        let folder = try den.pluginFolder(["AboutModule"])
        try den.temp.copy(library, into: folder)

        let render = try den.run(["render", "hello/Ada", "--plugin-dir", folder.path])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.contains("HELLO, ADA!"))

        let session = try den.run(["run", "hello", "--plugin-dir", folder.path], input: "set name Grace\ngreet\nabout\nquit\n")
        #expect(session.stdout.contains("HELLO, GRACE!"))
        #expect(session.stdout.contains("greeter 1.0.0"), "About lists the third-party module")
    }
}
