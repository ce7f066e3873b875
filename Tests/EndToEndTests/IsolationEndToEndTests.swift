import DenTestSupport
import Foundation
import Testing

/// The real `den` with an isolated module, in the terminal and on the command line.
@Suite("den --isolate: the terminal and the command line")
struct IsolationEndToEndTests {
    @Test("den run --isolate: a crash shows the error, the screen keeps its count, the session goes on")
    func terminal() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureFaults"])
        let result = try den.run(["run", "faults", "--plugin-dir", folder.path, "--isolate", "faults"],
                                 input: "count\ncount\nsegv\ncount\nquit\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("count 2"))
        // The terminal wraps long lines: read the text as one line.
        let text = result.stdout.replacing("\n", with: " ")
        #expect(text.contains("crashed while handling the event (its worker ended by SIGSEGV); den restarted it and restored this screen from its last snapshot"), "\(result.stdout)")
        #expect(result.stdout.contains("count 3"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("Bye.\n"))
    }

    @Test("den plugins shows the mode, the worker and its sandbox; den call reaches an isolated export")
    func pluginsAndCall() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureFaults"])
        let plugins = try den.run(["plugins", "--plugin-dir", folder.path, "--isolate", "faults"])
        #expect(plugins.status == 0, "\(plugins.stderr)")
        #expect(plugins.stdout.contains("runs isolated, pid "), "\(plugins.stdout)")
        #expect(plugins.stdout.contains("sandbox: no_new_privs"), "\(plugins.stdout)")
        #expect(plugins.stdout.contains("runs in-process"), "About stays in-process")
        let call = try den.run(["call", "--plugin-dir", folder.path, "--isolate", "faults", "faults.add", "20", "22"])
        #expect(call.status == 0, "\(call.stderr)")
        #expect(call.stdout == "42\n")
    }

    @Test("den run --isolate crashme isolates a module without a manifest: its builder's segfault ends only the worker")
    func manifestless() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureCrashMe"])
        let plugins = try den.run(["plugins", "--plugin-dir", folder.path, "--isolate", "crashme"])
        #expect(plugins.status == 0, "\(plugins.stderr)")
        #expect(plugins.stdout.contains("runs isolated, pid "), "\(plugins.stdout)")
        let run = try den.run(["run", "crashme/pid", "--plugin-dir", folder.path, "--isolate", "crashme"], input: "go crashme\nquit\n")
        // A scripted run that met an error screen ends with 1; den's own segfault would be 139.
        #expect(run.status == 1, "den survives: \(run.stderr)")
        #expect(run.stdout.contains("crashed in its builder: its worker ended by"), "\(run.stdout)")
        #expect(run.stdout.contains("pid "), "\(run.stdout)")
        #expect(run.stderr.contains("module 'crashme': its worker ended by SIGSEGV"), "\(run.stderr)")
        #expect(run.stdout.hasSuffix("Bye.\n"), "\(run.stdout)")
    }

    @Test("--isolate naming no module refuses to start, listing the modules found")
    func unknownIsolate() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule"])
        let result = try den.run(["plugins", "--plugin-dir", folder.path, "--isolate", "crashmee"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--isolate names 'crashmee', but no module has that id or file name (modules found: about"), "\(result.stderr)")
    }

    @Test("--isolate '' is refused before anything loads")
    func emptyIsolate() throws {
        let result = try DenCommand().run(["plugins", "--isolate", ""])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--isolate '' names no module"), "\(result.stderr)")
    }
}
