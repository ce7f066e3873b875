@testable import DenHost
import DenHotSwap
import DenTestSupport
import Foundation
import Synchronization
import Testing

@Suite("Watching plugin folders: inotify and polling, debounced")
struct FileWatchTests {
    /// Collects what a watcher reports.
    final class Reports: Sendable {
        let files = Mutex<[URL]>([])
        func wait(for count: Int, seconds: Double = 10) -> [URL] {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                let now = files.withLock { $0 }
                if now.count >= count { return now }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return files.withLock { $0 }
        }
    }

    @Test("a file written in pieces is reported once, after it stopped changing", arguments: [FileChangeWatcher.Mode.inotify, .polling])
    func writtenInPieces(mode: FileChangeWatcher.Mode) throws {
        let temp = try TemporaryDirectory("den-watch")
        let folder = try temp.folder("plugins")
        let reports = Reports()
        // A debounce well above the pauses between pieces, so a writer slowed by a busy machine
        // still writes the whole file within it.
        let watcher = FileChangeWatcher(folders: [folder], options: .init(mode: mode, debounce: .seconds(1), pollInterval: .milliseconds(20)),
                                        accept: { $0.pathExtension == "so" }, onStable: { file in reports.files.withLock { $0.append(file) } })
        try watcher.start()
        defer { watcher.stop() }
        #expect(watcher.activeMode == mode)
        let file = folder.appendingPathComponent("libX.so")
        let handle = try #require(FileHandle(forWritingAtPath: FileManager.default.createFile(atPath: file.path, contents: nil) ? file.path : ""))
        for piece in 0..<5 {
            handle.write(Data(repeating: UInt8(piece), count: 4096))
            Thread.sleep(forTimeInterval: 0.04)
        }
        try handle.close()
        try Data("ignored".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let seen = reports.wait(for: 1)
        #expect(seen.map(\.lastPathComponent) == ["libX.so"])
        // Reported once: nothing more arrives for an unchanged file.
        Thread.sleep(forTimeInterval: 1.2)
        #expect(reports.files.withLock { $0.count } == 1)
    }

    @Test("a file changed the moment start returns is reported: the files are taken as seen before start returns",
          arguments: [FileChangeWatcher.Mode.inotify, .polling])
    func changedRightAfterStart(mode: FileChangeWatcher.Mode) throws {
        // Without a baseline taken inside `start`, the watcher thread could read the changed file
        // as the starting state and never report it; a few rounds make that race show.
        for round in 0..<5 {
            let temp = try TemporaryDirectory("den-watch-start")
            let folder = try temp.folder("plugins")
            let file = folder.appendingPathComponent("libX.so")
            try Data(repeating: 1, count: 100).write(to: file)
            let reports = Reports()
            let watcher = FileChangeWatcher(folders: [folder], options: .init(mode: mode, debounce: .milliseconds(50), pollInterval: .milliseconds(20)),
                                            accept: { $0.pathExtension == "so" }, onStable: { file in reports.files.withLock { $0.append(file) } })
            try watcher.start()
            defer { watcher.stop() }
            try Data(repeating: 2, count: 200).write(to: file)
            #expect(reports.wait(for: 1).map(\.lastPathComponent) == ["libX.so"], "round \(round)")
        }
    }

    @Test("the folder watch swaps a rebuilt plugin in by itself", arguments: [FileChangeWatcher.Mode.inotify, .polling])
    func watchSwaps(mode: FileChangeWatcher.Mode) throws {
        let app = try SwapTestApp()
        let session = app.runtime.makeSession()
        session.open("swap/6")
        let reports = Mutex<[HotSwapReport]>([])
        let watch = PluginFolderWatch(runtime: app.runtime, options: .init(mode: mode, debounce: .milliseconds(50), pollInterval: .milliseconds(50))) { report in
            reports.withLock { $0.append(report) }
        }
        try watch.start()
        defer { watch.stop() }
        try SwapTestApp.fixture.install(["-DSWAP_VERSION=2"], into: app.plugins)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, reports.withLock({ $0.isEmpty }) { Thread.sleep(forTimeInterval: 0.01) }
        let report = try #require(reports.withLock { $0.first })
        #expect(report.outcome == .swapped, "\(report)")
        #expect(session.current?.text.contains("swap v2") == true)
        #expect(session.current?.count == 6)
    }

    @Test("only plugin files count: in the bundled folder only lib<Name>Module.so, never a hidden partial copy")
    func pluginFileRule() {
        let bundled = "/opt/den/lib/den/modules"
        #expect(PluginFolderWatch.isPluginFile(URL(fileURLWithPath: "\(bundled)/libMainModule.so"), bundledFolder: bundled))
        #expect(!PluginFolderWatch.isPluginFile(URL(fileURLWithPath: "\(bundled)/libDenHTTPTransport.so"), bundledFolder: bundled))
        #expect(PluginFolderWatch.isPluginFile(URL(fileURLWithPath: "/elsewhere/libAnything.so"), bundledFolder: bundled))
        #expect(!PluginFolderWatch.isPluginFile(URL(fileURLWithPath: "/elsewhere/.libX.so.123.tmp"), bundledFolder: bundled))
        #expect(!PluginFolderWatch.isPluginFile(URL(fileURLWithPath: "/elsewhere/readme.txt"), bundledFolder: bundled))
    }
}

@Suite("Watching source folders recursively")
struct RecursiveWatchTests {
    @Test("a file in a folder created after the watch started is reported", arguments: [FileChangeWatcher.Mode.inotify, .polling])
    func newSubfolder(mode: FileChangeWatcher.Mode) throws {
        let temp = try TemporaryDirectory("den-watch-tree")
        let root = try temp.folder("Plugins")
        let reports = FileWatchTests.Reports()
        let watcher = FileChangeWatcher(folders: [root], options: .init(mode: mode, debounce: .milliseconds(100), pollInterval: .milliseconds(20), recursive: true),
                                        accept: { $0.pathExtension == "swift" }, onStable: { file in reports.files.withLock { $0.append(file) } })
        try watcher.start()
        defer { watcher.stop() }
        #expect(watcher.activeMode == mode)
        // A new module folder with a nested one, then a source saved into the nested one.
        let nested = root.appendingPathComponent("Weather/View")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        Thread.sleep(forTimeInterval: 0.2)
        try Data("// view\n".utf8).write(to: nested.appendingPathComponent("WeatherView.swift"))
        let seen = reports.wait(for: 1)
        #expect(seen.map(\.lastPathComponent) == ["WeatherView.swift"], "\(seen)")
    }
}
