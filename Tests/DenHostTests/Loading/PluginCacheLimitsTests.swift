@testable import DenHost
import DenModuleFiles
import DenLibraryClients
import DenSupport
import DenTestSupport
import Foundation
import Synchronization
import Testing

@Suite("PluginCache stays bounded")
struct PluginCacheLimitsTests {
    /// Writes a file named like a cache copy, last used `age` seconds ago.
    func copy(_ temp: TemporaryDirectory, _ stem: String, size: Int, age: TimeInterval, index: Int = 1) throws -> String {
        let name = "\(stem)-2049-\(1000 + index)-\(size)-1700000000000000000.so"
        let file = temp.path("cache").appendingPathComponent(name)
        try FileManager.default.createDirectory(at: temp.path("cache"), withIntermediateDirectories: true)
        try Data(count: size).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: file.path)
        return name
    }

    func names(_ temp: TemporaryDirectory) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: temp.path("cache").path).filter { !$0.hasPrefix(".last") })
    }

    @Test("copies unused for longer than the age limit are removed; recent ones stay")
    func age() throws {
        let temp = try TemporaryDirectory()
        let cache = PluginCache(directory: temp.path("cache"), limits: .init(maxBytes: 1 << 30, maxUnusedAge: 86_400))
        let old = try copy(temp, "libOldModule", size: 10, age: 2 * 86_400)
        let fresh = try copy(temp, "libFreshModule", size: 10, age: 3600 * 5)
        let report = cache.prune()
        #expect(report.removed == 1)
        #expect(try names(temp) == [fresh])
        #expect(!(try names(temp)).contains(old))
    }

    @Test("beyond the size limit the least recently used copies go, never one used within the hour")
    func size() throws {
        let temp = try TemporaryDirectory()
        let cache = PluginCache(directory: temp.path("cache"), limits: .init(maxBytes: 250, maxUnusedAge: 30 * 86_400))
        let oldest = try copy(temp, "libAModule", size: 100, age: 5 * 3600, index: 1)
        let older = try copy(temp, "libBModule", size: 100, age: 4 * 3600, index: 2)
        let recent = try copy(temp, "libCModule", size: 100, age: 60, index: 3)
        let justUsed = try copy(temp, "libDModule", size: 100, age: 10, index: 4)
        cache.prune()
        // 400 bytes: A and B go (oldest first); C and D were used within the hour and stay,
        // although the cache is still over its limit (another den may be loading them).
        #expect(try names(temp) == [recent, justUsed])
        _ = (oldest, older)
    }

    @Test("files den did not make are never removed, by prune or clean")
    func foreignFiles() throws {
        let temp = try TemporaryDirectory()
        let cache = PluginCache(directory: temp.path("cache"), limits: .init(maxBytes: 0, maxUnusedAge: 0))
        _ = try copy(temp, "libAModule", size: 10, age: 10 * 86_400)
        for name in ["notes.txt", "libAModule.so", "x-1-2-3.so.bak", "lib-a-b-c-d.so"] {
            try temp.write(Data("mine".utf8), to: name, in: temp.path("cache"))
        }
        cache.prune()
        cache.clean()
        #expect(try names(temp) == ["notes.txt", "libAModule.so", "x-1-2-3.so.bak", "lib-a-b-c-d.so"])
    }

    @Test("discard removes only a copy inside the cache")
    func discard() throws {
        let temp = try TemporaryDirectory()
        let cache = PluginCache(directory: temp.path("cache"))
        let name = try copy(temp, "libAModule", size: 10, age: 0)
        let outside = try temp.write(Data("x".utf8), to: "libAModule-2049-1-1-1.so")
        cache.discard(outside)
        #expect(FileManager.default.fileExists(atPath: outside.path))
        cache.discard(temp.path("cache").appendingPathComponent(name))
        #expect(try names(temp).isEmpty)
    }

    @Test("pruneIfDue runs at most once a day")
    func due() throws {
        let temp = try TemporaryDirectory()
        let cache = PluginCache(directory: temp.path("cache"), limits: .init(maxBytes: 1 << 30, maxUnusedAge: 86_400))
        _ = try copy(temp, "libAModule", size: 10, age: 2 * 86_400, index: 1)
        #expect(cache.pruneIfDue()?.removed == 1)
        _ = try copy(temp, "libBModule", size: 10, age: 2 * 86_400, index: 2)
        #expect(cache.pruneIfDue() == nil, "pruned less than a day ago")
        #expect(cache.pruneIfDue(now: Date().addingTimeInterval(2 * 86_400))?.removed == 1)
    }

    @Test("a file rewritten while it is copied is copied again, so a copy always holds the version its name says")
    func changedWhileCopying() throws {
        let temp = try TemporaryDirectory()
        let file = temp.path("libBuiltModule.so")
        try Data([0x7F, 0x45, 0x4C, 0x46] + Array(repeating: 1, count: 60)).write(to: file)
        let rewrites = Mutex(1)
        var cache = PluginCache(directory: temp.path("cache"))
        cache.copyFile = { from, to in
            try FileManager.default.copyItem(at: from, to: to)
            // A build replaces the file after the copy began: a new inode, other bytes.
            guard rewrites.withLock({ count in defer { count -= 1 }; return count > 0 }) else { return }
            let next = temp.path("next.so")
            try Data([0x7F, 0x45, 0x4C, 0x46] + Array(repeating: 2, count: 90)).write(to: next)
            _ = rename(next.path, from.path)
        }
        let staged = try cache.stageCopy(file)
        let stamp = try #require(FileStamp(file.path))
        #expect(try Data(contentsOf: staged.url) == Data(contentsOf: file), "the copy holds the file as it is now")
        #expect(staged.url.lastPathComponent.contains("-\(stamp.inode)-\(stamp.size)-"), "named after that version")
        #expect(staged.source == stamp)
        let files = try stagedFiles(temp)
        #expect(files.count == 1, "no copy of the replaced version is left: \(files)")
    }

    @Test("a file that keeps changing while it is copied is refused with what to do, leaving no copy")
    func keepsChanging() throws {
        let temp = try TemporaryDirectory()
        let file = temp.path("libBusyModule.so")
        try Data([0x7F, 0x45, 0x4C, 0x46] + Array(repeating: 1, count: 60)).write(to: file)
        var cache = PluginCache(directory: temp.path("cache"))
        cache.copyFile = { from, to in
            try FileManager.default.copyItem(at: from, to: to)
            let next = temp.path("next.so")
            try Data([0x7F, 0x45, 0x4C, 0x46] + Array(repeating: 3, count: Int.random(in: 61...900))).write(to: next)
            _ = rename(next.path, from.path)
        }
        #expect {
            try cache.stageCopy(file)
        } throws: { error in
            "\(error)".contains("kept changing while den copied it")
        }
        #expect(try stagedFiles(temp).isEmpty)
    }
}

@Suite("InstallLayout and module folders")
struct InstallLayoutTests {
    @Test("an installed prefix keeps modules in lib/den/modules and helpers in lib/den")
    func installed() throws {
        let temp = try TemporaryDirectory()
        let bin = try temp.folder("bin")
        let modules = try temp.folder("lib/den/modules")
        try temp.write(Data(), to: "libDenHTTPTransport.so", in: temp.path("lib/den"))
        let layout = InstallLayout(executableDirectory: bin)
        #expect(layout.isInstalled)
        #expect(layout.bundledModulesDirectory.standardizedFileURL == modules.standardizedFileURL)
        #expect(layout.helperLibrary("libDenHTTPTransport.so").standardizedFileURL
            == temp.path("lib/den/libDenHTTPTransport.so").standardizedFileURL)
    }

    @Test("a build folder keeps everything beside den")
    func buildFolder() throws {
        let temp = try TemporaryDirectory()
        let debug = try temp.folder("debug")
        let layout = InstallLayout(executableDirectory: debug)
        #expect(!layout.isInstalled)
        #expect(layout.bundledModulesDirectory == debug)
        #expect(layout.helperLibrary("libDenHTTPTransport.so") == debug.appendingPathComponent("libDenHTTPTransport.so"))
    }

    @Test("the user folder follows XDG_DATA_HOME, ignoring a relative value")
    func userFolder() {
        #expect(InstallLayout.userModulesDirectory(environment: ["XDG_DATA_HOME": "/x"]).path == "/x/den/modules")
        #expect(InstallLayout.userModulesDirectory(environment: ["XDG_DATA_HOME": "rel"]).path.hasSuffix(".local/share/den/modules"))
    }

    @Test("folders add up in order; bundled counts only lib<Name>Module.so; missing default folders are fine")
    func discovery() throws {
        let temp = try TemporaryDirectory()
        let bundled = try temp.folder("bundled"), user = try temp.folder("user"), named = try temp.folder("named")
        // Names near the rules: no name between lib and Module.so, a suffix after .so, a .so
        // name that is not a module, a name that is only ".so", a non-ASCII module name.
        for name in ["libAboutModule.so", "libDenFixtureWrongABI.so", "libDenHTTPTransport.so", "libModule.so",
                     "libMainModule.so.1", "Module.so", "libÜberModule.so", "notes.txt"] {
            try temp.write(Data("x".utf8), to: name, in: bundled)
        }
        try temp.write(Data("x".utf8), to: "libThing.so", in: user)
        try temp.write(Data("x".utf8), to: ".so", in: user)
        try temp.write(Data("x".utf8), to: "libThing.so.bak", in: user)
        try temp.write(Data("x".utf8), to: "libOther.so", in: named)
        let discovery = PluginDiscovery(explicitDirectories: [named], bundledDirectory: bundled, userDirectory: user)
        let (found, problems) = discovery.candidates()
        #expect(problems.isEmpty)
        #expect(found.map(\.file.lastPathComponent) == ["libAboutModule.so", "libÜberModule.so", ".so", "libThing.so", "libOther.so"])
        let missing = PluginDiscovery(explicitDirectories: [], bundledDirectory: temp.path("none"), userDirectory: temp.path("none2"))
        #expect(missing.candidates().found.isEmpty)
        #expect(missing.candidates().problems.isEmpty)
    }
}

/// The plugin copies (and partial copies) in a test's cache folder.
private func stagedFiles(_ temp: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: temp.path("cache").path).filter { $0.contains(".so") }
}
