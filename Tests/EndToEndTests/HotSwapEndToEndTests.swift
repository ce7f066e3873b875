import DenTestSupport
import Foundation
import Testing

/// `den run --watch` on the real binary with the swap fixture: the terminal redraws after a
/// swap with the screen's state kept, prints a refused version's error, and `den plugins` in
/// another process shows the running den's generations and retained images.
@Suite("den run --watch, the real binary")
struct HotSwapEndToEndTests {
    /// A running `den run` whose input stays open, its output collected as it comes.
    final class LiveDen: @unchecked Sendable {
        /// Started with posix_spawn (`Spawned`): Foundation's `Process.run` now and then crashes
        /// the whole test process on Linux (swift-corelibs-foundation#5472).
        let process: Spawned
        private let output = Collected()

        init(_ arguments: [String], environment: [String: String]) throws {
            process = try Spawned(try BuildProducts.require(BuildProducts.den), arguments,
                                  environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
            // Standard output and error into one text, in the order they come.
            for handle in [process.output, process.errors] {
                let output = output
                Thread {
                    while true {
                        let chunk = handle.availableData
                        if chunk.isEmpty { break }
                        output.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
                    }
                }.start()
            }
        }

        var text: String { output.withLock { $0 } }

        final class Collected: @unchecked Sendable {
            private let lock = NSLock()
            private var value = ""
            func withLock<T>(_ body: (inout String) -> T) -> T { lock.withLock { body(&value) } }
        }

        func type(_ line: String) { process.send(Data((line + "\n").utf8)) }

        /// Waits for `needle` in the output after `from` characters.
        func wait(for needle: String, after from: Int = 0, seconds: Double = 20) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                let now = text
                if now.count > from, now.dropFirst(from).contains(needle) { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return false
        }

        func quit() {
            type("quit")
            try? process.input.close()
            process.waitUntilExit()
        }
    }

    @Test("the terminal redraws v2 with the count kept, prints why a broken v3 was refused, and den plugins shows the generations")
    func runWatch() throws {
        let den = try DenCommand()
        let plugins = try den.temp.folder("plugins")
        let fixture = try SwapFixture()
        try fixture.install([], into: plugins)
        let environment = ["DEN_CACHE_DIR": den.temp.path("cache").path, "DEN_DATA_DIR": den.temp.path("data").path,
                           "DEN_PLUGIN_PATH": "", "NO_COLOR": "1", "COLUMNS": "60"]
        let live = try LiveDen(["run", "swap/5", "--watch", "--no-default-modules", "--plugin-dir", plugins.path], environment: environment)
        defer { if live.process.isRunning { live.process.terminate() } }
        #expect(live.wait(for: "Watching plugin folders (inotify)"), "\(live.text)")
        live.type("add")
        #expect(live.wait(for: "COUNT 6"), "\(live.text)")

        var from = live.text.count
        try fixture.install(["-DSWAP_VERSION=2"], into: plugins)
        #expect(live.wait(for: "hot swap: module 'swap' swapped to generation 2", after: from), "\(live.text)")
        #expect(live.wait(for: "swap v2", after: from))
        #expect(live.text.dropFirst(from).contains("COUNT 6"), "the state came across")
        live.type("add")
        #expect(live.wait(for: "COUNT 8", after: from), "v2 adds 2: \(live.text)")

        // Another process sees what this den swapped.
        let listing = try den.run(["plugins", "--no-default-modules", "--plugin-dir", plugins.path])
        #expect(listing.stdout.contains("A den running with --watch (pid \(live.process.processIdentifier)) retains 1 old image(s)"), "\(listing.stdout)")
        #expect(listing.stdout.contains("swap 2.0.0: generation 2, loaded 20"), "\(listing.stdout)")
        let json = try den.run(["plugins", "--json", "--no-default-modules", "--plugin-dir", plugins.path])
        #expect(json.stdout.contains(#""running":[{"#), "\(json.stdout)")
        #expect(json.stdout.contains(#""generation":2"#))

        from = live.text.count
        try fixture.install(["-DSWAP_VERSION=3", "-DENTRY_FAILS"], into: plugins)
        #expect(live.wait(for: "Error: hot swap refused, the old", after: from), "\(live.text)")
        live.type("add")
        #expect(live.wait(for: "COUNT 10", after: from), "v2 still serves: \(live.text)")
        // Reported once, wrapped at word boundaries to the 60 columns COLUMNS gives: every line
        // fits (but a single word longer than that, such as the plugin's path), and read as one
        // text (continuation lines are indented) no word was cut.
        let refusal = String(live.text.dropFirst(from))
        let lines = refusal.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 60 || !$0.trimmingCharacters(in: .whitespaces).contains(" ") }, "\(refusal)")
        let joined = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(joined.contains("libSwapModule.so: its entry point returned DEN_ERR_"), "\(refusal)")
        #expect(joined.components(separatedBy: "its entry point returned").count == 2, "reported once: \(refusal)")
        let refused = try den.run(["plugins", "--no-default-modules", "--plugin-dir", plugins.path])
        #expect(refused.stdout.contains("last swap refused:"), "\(refused.stdout)")

        live.quit()
        #expect(live.process.terminationStatus == 0, "\(live.text)")
        // Its status is withdrawn when it stops.
        let after = try den.run(["plugins", "--no-default-modules", "--plugin-dir", plugins.path])
        #expect(!after.stdout.contains("A den running with --watch"))
    }

    @Test("den dev: a saved source runs that module's build and the built library is swapped in; a failed build is reported and the old version keeps serving")
    func devRebuilds() throws {
        let den = try DenCommand()
        // A checkout stand-in: den dev needs Package.swift and Plugins/<Name>/ to watch.
        let checkout = try den.temp.folder("checkout")
        try Data("// stand-in\n".utf8).write(to: checkout.appendingPathComponent("Package.swift"))
        let sources = checkout.appendingPathComponent("Plugins/Swap")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let source = sources.appendingPathComponent("SwapView.swift")
        try Data("// v1\n".utf8).write(to: source)
        let plugins = try den.temp.folder("plugins")
        let fixture = try SwapFixture()
        try fixture.install([], into: plugins)
        let next = try fixture.library(["-DSWAP_VERSION=2"])
        // `swift` on PATH stands in for the toolchain (a real build of a Swift module takes
        // minutes): it logs its arguments and installs the prepared v2 the way a build writes
        // its product, or fails like a compile error while the file `fail` exists.
        let bin = try den.temp.folder("bin")
        let log = den.temp.path("builds.log"), fail = den.temp.path("fail")
        let stub = bin.appendingPathComponent("swift")
        try Data("""
            #!/bin/sh
            echo "$@" >> "\(log.path)"
            if [ -e "\(fail.path)" ]; then echo "Plugins/Swap/SwapView.swift:1:1: error: expected declaration"; exit 1; fi
            cp "\(next.path)" "\(plugins.path)/.libSwapModule.so.part" && mv "\(plugins.path)/.libSwapModule.so.part" "\(plugins.path)/libSwapModule.so"
            echo "Build of product 'SwapModule' complete!"

            """.utf8).write(to: stub)
        #expect(chmod(stub.path, 0o755) == 0)
        let environment = ["DEN_CACHE_DIR": den.temp.path("cache").path, "DEN_DATA_DIR": den.temp.path("data").path,
                           "DEN_PLUGIN_PATH": "", "NO_COLOR": "1",
                           "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
        let live = try LiveDen(["dev", "--package-path", checkout.path, "--port", "0", "--no-default-modules",
                                "--plugin-dir", plugins.path], environment: environment)
        defer { if live.process.isRunning { live.process.terminate(); live.process.waitUntilExit() } }
        #expect(live.wait(for: "a saved file rebuilds its module"), "\(live.text)")
        let address = live.text.range(of: #"http://[0-9.]+:[0-9]+"#, options: .regularExpression).map { String(live.text[$0]) }
        let base = try #require(address, "\(live.text)")
        let cookies = den.temp.path("cookies").path
        func page(_ route: String) throws -> String {
            try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["curl", "-s", "-L", "-b", cookies, "-c", cookies, "\(base)/\(route)"]).stdout
        }
        let before = try page("swap/5")
        #expect(before.contains("swap v1") && before.contains("count 5"), "\(before)")

        var from = live.text.count
        try Data("// v2\n".utf8).write(to: source)
        #expect(live.wait(for: "changed; rebuilding SwapModule", after: from), "\(live.text)")
        #expect(live.wait(for: "den dev: built SwapModule", after: from), "\(live.text)")
        #expect(live.wait(for: "swapped to generation 2", after: from), "\(live.text)")
        let after = try page("swap/5")
        #expect(after.contains("swap v2") && after.contains("count 5"), "v2 serves the open screen with its state: \(after)")
        let builds = try String(contentsOf: log, encoding: .utf8)
        #expect(builds.contains("build --product SwapModule --package-path \(checkout.path)"), "\(builds)")

        try Data().write(to: fail)
        from = live.text.count
        try Data("// broken\n".utf8).write(to: source)
        #expect(live.wait(for: "Error: swift build --product SwapModule failed (exit 1); the old version keeps serving", after: from),
                "\(live.text)")
        #expect(live.text.dropFirst(from).contains("error: expected declaration"))
        #expect(try page("swap/5").contains("swap v2"), "the last good version keeps serving")
    }

    @Test("den dev in a module package (den new-module's layout): builds it, serves it, rebuilds and swaps it when a source is saved")
    func devInModulePackage() throws {
        let den = try DenCommand()
        // The layout den new-module writes: Package.swift, Sources/<Name>Module and <Name>ModuleEntry.
        let package = try den.temp.folder("SwapPackage")
        try Data("// stand-in\n".utf8).write(to: package.appendingPathComponent("Package.swift"))
        for folder in ["Sources/SwapModule", "Sources/SwapModuleEntry"] {
            try FileManager.default.createDirectory(at: package.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let source = package.appendingPathComponent("Sources/SwapModule/SwapView.swift")
        try Data("// v1\n".utf8).write(to: source)
        let fixture = try SwapFixture()
        let first = try fixture.library([]), next = try fixture.library(["-DSWAP_VERSION=2"])
        // `swift` on PATH stands in for the toolchain: the first build writes v1 where SwiftPM
        // puts a debug product, the next ones v2.
        let bin = try den.temp.folder("bin")
        let log = den.temp.path("builds.log"), built = den.temp.path("built-once")
        let output = package.appendingPathComponent(".build/debug")
        let stub = bin.appendingPathComponent("swift")
        try Data("""
            #!/bin/sh
            echo "$@" >> "\(log.path)"
            mkdir -p "\(output.path)"
            if [ -e "\(built.path)" ]; then lib="\(next.path)"; else lib="\(first.path)"; touch "\(built.path)"; fi
            cp "$lib" "\(output.path)/.libSwapModule.so.part" && mv "\(output.path)/.libSwapModule.so.part" "\(output.path)/libSwapModule.so"
            echo "Build of product 'SwapModule' complete!"

            """.utf8).write(to: stub)
        #expect(chmod(stub.path, 0o755) == 0)
        let environment = ["DEN_CACHE_DIR": den.temp.path("cache").path, "DEN_DATA_DIR": den.temp.path("data").path,
                           "DEN_PLUGIN_PATH": "", "NO_COLOR": "1",
                           "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
        let live = try LiveDen(["dev", "--package-path", package.path, "--port", "0", "--no-default-modules"], environment: environment)
        defer { if live.process.isRunning { live.process.terminate(); live.process.waitUntilExit() } }
        #expect(live.wait(for: "a saved file rebuilds its module"), "\(live.text)")
        #expect(live.text.contains("den dev: building SwapModule first"), "\(live.text)")
        let address = live.text.range(of: #"http://[0-9.]+:[0-9]+"#, options: .regularExpression).map { String(live.text[$0]) }
        let base = try #require(address, "\(live.text)")
        let cookies = den.temp.path("cookies").path
        func page(_ route: String) throws -> String {
            try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["curl", "-s", "-L", "-b", cookies, "-c", cookies, "\(base)/\(route)"]).stdout
        }
        #expect(try page("swap/5").contains("swap v1"), "the package's own build is served")

        let from = live.text.count
        try Data("// v2\n".utf8).write(to: source)
        #expect(live.wait(for: "changed; rebuilding SwapModule", after: from), "\(live.text)")
        #expect(live.wait(for: "swapped to generation 2", after: from), "\(live.text)")
        #expect(try page("swap/5").contains("swap v2"))
        let builds = try String(contentsOf: log, encoding: .utf8)
        #expect(builds.contains("build --product SwapModule --package-path \(package.path) -c debug"), "\(builds)")
    }

    @Test("den dev outside a Den checkout or a module package says what to do instead")
    func devOutsideCheckout() throws {
        let den = try DenCommand()
        let empty = try den.temp.folder("not-a-checkout")
        let result = try den.run(["dev", "--package-path", empty.path, "--port", "0"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("is neither the Den checkout (Package.swift and Plugins/) nor a module package"), "\(result.stderr)")
        #expect(result.stderr.contains("den serve --watch"))
    }

    @Test("a bad --watch-mode is a usage error naming the modes")
    func badWatchMode() throws {
        let den = try DenCommand()
        let result = try den.run(["run", "--watch", "--watch-mode", "fsevents"], input: "")
        #expect(result.status == 64)
        #expect(result.stderr.contains("use automatic, inotify or polling"), "\(result.stderr)")
    }
}
