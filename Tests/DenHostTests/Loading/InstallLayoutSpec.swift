@testable import DenHost
import DenLibraryClients
import Foundation
import Testing

/// Where den finds its own files, from the running executable's path.
@Suite("Install layout")
struct InstallLayoutSpec {
    @Test("the executable's path is what /proc/self/exe points at")
    func executablePath() throws {
        let expected = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(InstallLayout.executablePath() == expected)
        #expect(InstallLayout.current?.executableDirectory.path == URL(fileURLWithPath: expected).deletingLastPathComponent().path)
    }

    @Test("a path's folder is everything before its last slash", arguments: [
        ("/usr/local/bin/den", "/usr/local/bin"), ("/den", "/"), ("/a b/é/den-commands", "/a b/é"), ("den", "."),
    ])
    func folder(path: String, folder: String) {
        #expect(InstallLayout.directory(of: path) == folder)
    }

    @Test("installed means <prefix>/lib/den/modules is a folder beside <prefix>/bin")
    func installed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("den-layout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let bin = root.appendingPathComponent("bin", isDirectory: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let layout = InstallLayout(executableDirectory: bin)
        #expect(!layout.isInstalled, "a build folder")
        #expect(layout.bundledModulesDirectory == bin)
        let lib = root.appendingPathComponent("lib/den", isDirectory: true)
        try FileManager.default.createDirectory(at: lib, withIntermediateDirectories: true)
        try Data().write(to: lib.appendingPathComponent("modules"))
        #expect(!layout.isInstalled, "a file named modules is not the folder")
        try FileManager.default.removeItem(at: lib.appendingPathComponent("modules"))
        try FileManager.default.createDirectory(at: lib.appendingPathComponent("modules"), withIntermediateDirectories: true)
        #expect(layout.isInstalled)
        #expect(layout.bundledModulesDirectory.path == lib.appendingPathComponent("modules").path)
        #expect(InstallLayout(executableDirectory: URL(fileURLWithPath: bin.path, isDirectory: false)).isInstalled, "with or without a trailing slash")
    }
}
