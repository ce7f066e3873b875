import Foundation

/// Where the package's build products are: the folder of the running test bundle, which SwiftPM
/// puts beside `den` and the plugin libraries (override with `DEN_BUILD_DIR`).
package enum BuildProducts {
    package static var directory: URL {
        if let explicit = ProcessInfo.processInfo.environment["DEN_BUILD_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // On some runners the test binary sits inside `<Package>PackageTests.xctest/`.
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        return folder
    }

    /// `lib<name>.so` in the build folder, e.g. `library("AboutModule")`.
    package static func library(_ name: String) -> URL {
        directory.appendingPathComponent("lib\(name).so")
    }

    /// The bundled modules in the build folder: every `lib<Name>Module.so`, sorted by file name,
    /// which is what den loads from there. Tests compare against this rather than a list each
    /// new module would have to edit.
    package static var bundledModuleFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix("lib") && $0.hasSuffix("Module.so") && $0.count > "libModule.so".count }.sorted()
    }

    /// Their module ids, sorted as den lists them: `libJogsModule.so` → `jogs`.
    package static var bundledModuleIDs: [String] {
        bundledModuleFiles.map { String($0.dropFirst("lib".count).dropLast("Module.so".count)).lowercased() }.sorted()
    }

    package static var den: URL {
        directory.appendingPathComponent("den")
    }

    /// Every command but `den render`, which `den` hands over to it.
    package static var denCommands: URL {
        directory.appendingPathComponent("den-commands")
    }

    /// A readable failure when the plugins were not built (plain `swift test` builds no .so).
    package static func require(_ file: URL) throws -> URL {
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw MissingBuildProduct(path: file.path)
        }
        return file
    }
}

package struct MissingBuildProduct: Error, CustomStringConvertible {
    package var path: String
    package var description: String {
        "\(path) was not built: run the tests with Scripts/test.sh, which builds the plugins first"
    }
}
