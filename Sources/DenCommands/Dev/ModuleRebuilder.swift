import DenHost
import DenHotSwap
import DenWeb
import Foundation

/// `den dev`: watches each bundled module's sources (`Plugins/<Name>/…`) and, when a file there
/// is saved, rebuilds only that module (`swift build --product <Name>Module`). The build's output
/// goes to the terminal; a failed build's errors also go to every open page as a banner. The
/// plugin-folder watch then sees the new `lib<Name>Module.so` and swaps it in.
final class ModuleRebuilder: @unchecked Sendable {
    /// What kind of package den dev runs in, which says where sources are and what to build.
    enum Layout: Equatable {
        /// The Den checkout: `Plugins/<Name>/…` builds `<Name>Module`.
        case checkout
        /// A package made by `den new-module`: anything under `Sources/` builds `<Name>Module`.
        case modulePackage(String)

        static func find(_ root: URL) -> Layout? {
            let files = FileManager.default
            guard files.fileExists(atPath: root.appendingPathComponent("Package.swift").path) else { return nil }
            if files.fileExists(atPath: root.appendingPathComponent("Plugins").path) { return .checkout }
            let sources = (try? files.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? []
            let entries = sources.filter { $0.hasSuffix("ModuleEntry") && $0.count > "ModuleEntry".count }.sorted()
            return entries.first.map { .modulePackage(String($0.dropLast("ModuleEntry".count))) }
        }
    }

    let packageRoot: URL
    let layout: Layout
    let configuration: String
    private let events: DevEvents
    private var watcher: FileChangeWatcher?
    private let queue = DispatchQueue(label: "den dev builds")
    // `lock` guards `waiting`: modules changed while a build ran are built once more after it.
    private let lock = NSLock()
    private var waiting: [String] = []

    init(packageRoot: URL, layout: Layout = .checkout, configuration: String, events: DevEvents) {
        self.packageRoot = packageRoot
        self.layout = layout
        self.configuration = configuration
        self.events = events
    }

    var pluginsFolder: URL {
        packageRoot.appendingPathComponent(layout == .checkout ? "Plugins" : "Sources", isDirectory: true)
    }

    /// Builds `name`'s module at once, on the calling thread (before serving starts).
    func buildNow(_ name: String) { build(name) }

    /// The module a changed source belongs to: `Plugins/<Name>/…` → `Name`.
    static func moduleName(of file: URL, pluginsFolder: URL) -> String? {
        let base = pluginsFolder.standardizedFileURL.pathComponents
        let parts = file.standardizedFileURL.pathComponents
        guard parts.count > base.count + 1, Array(parts.prefix(base.count)) == base else { return nil }
        let name = parts[base.count]
        return name.first?.isUppercase == true ? name : nil
    }

    func start(mode: FileChangeWatcher.Mode) {
        let plugins = pluginsFolder
        let layout = layout
        let owner: @Sendable (URL) -> String? = { file in
            switch layout {
            case .checkout: Self.moduleName(of: file, pluginsFolder: plugins)
            case .modulePackage(let name):
                Array(file.standardizedFileURL.pathComponents.prefix(plugins.standardizedFileURL.pathComponents.count))
                    == plugins.standardizedFileURL.pathComponents ? name : nil
            }
        }
        let watcher = FileChangeWatcher(folders: [plugins], options: FileChangeWatcher.Options(mode: mode, recursive: true), accept: { file in
            let name = file.lastPathComponent
            return !name.hasPrefix(".") && owner(file) != nil
                && [".swift", ".c", ".h", ".xml", ".json"].contains { name.hasSuffix($0) }
        }, onStable: { [weak self] file in
            guard let self, let name = owner(file) else { return }
            print("den dev: \(file.path.replacingOccurrences(of: self.packageRoot.path + "/", with: "")) changed; rebuilding \(name)Module")
            fflush(nil)
            self.enqueue(name)
        })
        do {
            try watcher.start()
        } catch {
            print("Error: den dev cannot watch the sources in \(plugins.path): \(error); rebuild a module with swift build, then reload")
            fflush(nil)
            return
        }
        self.watcher = watcher
        print("den dev: watching the sources in \(plugins.path) (\(watcher.activeMode.rawValue)); a saved file rebuilds its module")
        fflush(nil)
    }

    func stop() { watcher?.stop() }

    private func enqueue(_ name: String) {
        let first = lock.withLock { () -> Bool in
            guard !waiting.contains(name) else { return false }
            waiting.append(name)
            return true
        }
        guard first else { return }
        queue.async { [self] in
            lock.withLock { waiting.removeAll { $0 == name } }
            build(name)
        }
    }

    /// Runs one build, printing its output; a failure's error lines go to the pages.
    private func build(_ name: String) {
        let product = "\(name)Module"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build", "--product", product, "--package-path", packageRoot.path, "-c", configuration]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let started = Date()
        do { try process.run() } catch {
            events.report(problem: "den dev could not run swift build for \(product): \(error). Is the Swift toolchain on PATH?")
            return
        }
        var output = Data()
        while true {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            output.append(chunk)
            FileHandle.standardOutput.write(chunk)
        }
        process.waitUntilExit()
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        if process.terminationStatus == 0 {
            print("den dev: built \(product) in \(seconds) s")
            events.clearProblem()
        } else {
            let text = String(decoding: output, as: UTF8.self)
            let errors = text.split(separator: "\n").filter { $0.contains("error:") }.prefix(20)
            let summary = errors.isEmpty ? text.split(separator: "\n").suffix(20).joined(separator: "\n") : errors.joined(separator: "\n")
            let message = "swift build --product \(product) failed (exit \(process.terminationStatus)); the old version keeps serving:\n\(summary)"
            print("Error: \(message)")
            events.report(problem: message)
        }
        fflush(nil)
    }
}
