import DenTestSupport
import Foundation
import Testing

/// A module written in Swift on DenKit (Tests/SwiftFaultsFixture) that fails the ways Swift code
/// fails, run by the real `den run` in the terminal with `--isolate swift-faults`: real worker
/// processes, real signals, the terminal front-end's own error and banner text.
@Suite("den run --isolate: a Swift module's fatalError, bad index, nil unwrap, endless loop and runaway memory are contained")
struct SwiftFaultsEndToEndTests {
    /// A fault, and the words den's error must name.
    struct Case: Sendable, CustomTestStringConvertible {
        var fault: String
        var ending: String
        var testDescription: String { fault }
    }

    static let cases = [
        // Swift's runtime traps end in `ud2` on x86-64: SIGILL (SIGTRAP on arm64).
        Case(fault: "fatal", ending: "its worker ended by \(trapSignal)"),
        Case(fault: "index", ending: "its worker ended by \(trapSignal)"),
        Case(fault: "unwrap", ending: "its worker ended by \(trapSignal)"),
        // The Swift runtime aborts when an allocation fails.
        Case(fault: "memory", ending: "its worker ended by SIGABRT"),
        Case(fault: "loop", ending: "it did not answer within the call limit"),
    ]

    static var trapSignal: String {
        #if arch(arm64)
        "SIGTRAP"
        #else
        "SIGILL"
        #endif
    }

    static let callLimit = 2.0

    func run(_ den: DenCommand, _ input: String, isolate: Bool = true) throws -> ProcessResult {
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureSwiftFaults"])
        return try den.run(["run", "swift-faults", "--plugin-dir", folder.path, "--call-timeout", "\(Self.callLimit)"]
                           + (isolate ? ["--isolate", "swift-faults"] : []),
                           input: input, environment: ["SWIFT_BACKTRACE": "enable=no"])
    }

    @Test("den stays up, the event gets den's error, the screen keeps its count, About still answers", arguments: cases)
    func contained(_ fault: Case) throws {
        let den = try DenCommand()
        let started = ContinuousClock.now
        let result = try run(den, "count\ncount\n\(fault.fault)\ncount\ngo about\nquit\n")
        let took = ContinuousClock.now - started
        #expect(result.status == 0, "den exits normally: \(result.stderr)")
        #expect(result.stdout.hasSuffix("Bye.\n"), "\(result.stdout.suffix(400))")
        // The terminal wraps long lines: read the text as one line.
        let text = result.stdout.replacing("\n", with: " ")
        #expect(text.contains("crashed while handling the event (\(fault.ending)"),
                "\(result.stdout)")
        // After a hang the call limit is near: the screen comes back at the next step instead.
        #expect(text.contains(fault.fault == "loop" ? "den restarted it and restores this screen from its last snapshot at your next step"
                                                   : "den restarted it and restored this screen from its last snapshot"), "\(result.stdout)")
        let afterCrash = try #require(result.stdout.range(of: "crashed while handling").map { String(result.stdout[$0.upperBound...]) })
        #expect(afterCrash.contains("count 3"), "the count before the crash, plus one: \(afterCrash)")
        #expect(afterCrash.contains("About Den"), "another module answers after the crash: \(afterCrash)")
        if fault.fault == "loop" {
            // Killed a little inside the call limit; the rest is den's start and the other steps.
            #expect(took < .seconds(Self.callLimit + 6), "\(took)")
        }
    }

    @Test("three crashes in a row quarantine the file: the route says so, den plugins lists it after a restart, release lifts it")
    func quarantine() throws {
        let den = try DenCommand()
        let crashed = try run(den, "count\nfatal\nindex\nunwrap\ngo about\ngo swift-faults\nquit\n")
        // den stays up to the end; a script that met a screen of den's own ("Cannot open") exits 1.
        #expect(crashed.stdout.hasSuffix("Bye.\n"), "\(crashed.stdout.suffix(400))")
        #expect(crashed.status == 1, "\(crashed.stderr)")
        let text = crashed.stdout.replacing("\n", with: " ")
        #expect(text.contains("Cannot open swift-faults"), "\(crashed.stdout)")
        #expect(text.contains("is quarantined: it crashed 3 times within 5 minutes (last: its worker ended by \(Self.trapSignal))"), "\(crashed.stdout)")
        #expect(text.contains("About Den"))

        let folder = try den.pluginFolder(["AboutModule", "DenFixtureSwiftFaults"])
        let plugins = try den.run(["plugins", "--plugin-dir", folder.path, "--isolate", "swift-faults"])
        let listed = try #require(plugins.stdout.split(separator: "\n").first { $0.hasPrefix("QUARANTINED swift-faults ") }, "\(plugins.stdout)")
        let hash = String(try #require(listed.split(separator: " ").dropFirst(2).first))

        let released = try den.run(["modules", "release", "swift-faults"])
        #expect(released.status == 0, "\(released.stdout) \(released.stderr)")
        #expect(released.stdout.contains("Released swift-faults (\(hash)"), "\(released.stdout)")
        let again = try run(den, "count\nquit\n")
        #expect(again.stdout.contains("count 1"), "tried afresh: \(again.stdout)")
    }

    @Test("the same Swift module in-process: its fatalError ends den itself (why isolation exists)")
    func inProcessEndsDen() throws {
        let den = try DenCommand()
        let result = try run(den, "count\nfatal\ncount\nquit\n", isolate: false)
        #expect(result.status != 0)
        #expect(result.stdout.contains("count 1"))
        #expect(!result.stdout.contains("Bye."), "den never got to its next prompt: \(result.stdout.suffix(400))")
        #expect(result.stderr.contains("swift-faults: fatalError at count 1"), "\(result.stderr.suffix(400))")
        #expect(result.stderr.contains("den: module 'swift-faults': handle(action 'fatal') crashed den"), "\(result.stderr.suffix(400))")
    }
}
