import DenSupport
import Foundation

/// The hot-swap test module (Tests/HotSwapFixture/swap_module.c) compiled with the system C
/// compiler in the versions a test asks for (`-D` flags, see the source), and installed into a
/// plugin folder the way a build does it: written under a temporary name, then renamed over
/// the old file (so every install is a new file identity, as after a real rebuild).
package final class SwapFixture: @unchecked Sendable {
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let source = packageRoot.appendingPathComponent("Tests/HotSwapFixture/swap_module.c")
    /// The requirement tests' module (Tests/RequirementFixture/requiring_module.c: its id, version
    /// and manifest fragment by `-D` flags).
    package static let requiringSource = packageRoot.appendingPathComponent("Tests/RequirementFixture/requiring_module.c")
    static let include = packageRoot.appendingPathComponent("Sources/CDenABI/include")

    /// `-D` flags for `requiringSource`: module `id` at `version`, whose manifest requires
    /// `requires` and may call `exports` (permission patterns such as `main.*`).
    package static func requiringModule(_ id: String, _ version: String, requires: [String: String] = [:], exports: [String] = []) -> [String] {
        var extra = ""
        if !requires.isEmpty {
            extra += #", \"requires\": {"# + requires.sorted { $0.key < $1.key }.map { #"\"\#($0.key)\": \"\#($0.value)\""# }
                .joined(separator: ", ") + "}"
        }
        if !exports.isEmpty {
            extra += #", \"permissions\": {\"exports\": ["# + exports.map { #"\"\#($0)\""# }.joined(separator: ", ") + "]}"
        }
        return [#"-DMODULE_ID="\#(id)""#, #"-DMODULE_VERSION="\#(version)""#, #"-DMANIFEST_EXTRA="\#(extra)""#]
    }

    private let builds: TemporaryDirectory
    private let source: URL
    private let lock = NSLock()
    private var built: [[String]: URL] = [:]

    package init(source: URL = SwapFixture.source) throws {
        builds = try TemporaryDirectory("den-swap-builds")
        self.source = source
    }

    /// The library for these flags (compiled once per fixture), e.g. `["-DSWAP_VERSION=2"]`.
    package func library(_ flags: [String] = []) throws -> URL {
        try lock.withLock {
            if let url = built[flags] { return url }
            let output = builds.path("swap-\(built.count).so")
            let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                               ["cc", "-shared", "-fPIC", "-O1", "-I", Self.include.path] + flags + [source.path, "-o", output.path])
            guard result.status == 0 else { throw CompileFailure(flags: flags, output: result.stderr) }
            built[flags] = output
            return output
        }
    }

    /// Installs the library for `flags` as `folder/name`, atomically (temporary file, then rename).
    @discardableResult
    package func install(_ flags: [String] = [], into folder: URL, as name: String = "libSwapModule.so") throws -> URL {
        let library = try library(flags)
        let destination = folder.appendingPathComponent(name)
        let partial = folder.appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
        try FileManager.default.copyItem(at: library, to: partial)
        guard rename(partial.path, destination.path) == 0 else { throw CompileFailure(flags: flags, output: "rename failed: \(errno)") }
        return destination
    }

    /// Writes only the first `fraction` of the library over `folder/name`, in place: a copy or
    /// build interrupted half way.
    @discardableResult
    package func installTruncated(_ flags: [String] = [], into folder: URL, as name: String = "libSwapModule.so",
                                 fraction: Double = 0.5) throws -> URL {
        let bytes = try Data(contentsOf: try library(flags))
        let destination = folder.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: destination)
        try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: destination)
        return destination
    }

    package struct CompileFailure: Error, CustomStringConvertible {
        package var flags: [String]
        package var output: String
        package var description: String { "cc failed for the swap fixture \(flags): \(output)" }
    }
}
