import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where den's own files are, found from the running executable's resolved path, so den works
/// however it is started (README "Installing"):
/// - installed (`Scripts/install.sh`): `<prefix>/bin/den`, bundled modules in
///   `<prefix>/lib/den/modules`, helper libraries (the HTTP transport) in `<prefix>/lib/den`;
/// - a build folder (`.build/debug`): everything sits beside `den`.
/// `/proc/self/exe` is already resolved by the kernel, so a symlink to `den` (from `~/bin` or
/// anywhere) leads to the real file; a *copy* of `den` is found through `../lib/den`.
package struct InstallLayout: Sendable, Equatable {
    /// The folder that holds the running executable.
    package var executableDirectory: URL

    package init(executableDirectory: URL) {
        self.executableDirectory = executableDirectory
    }

    /// The layout of the running `den`; nil when `/proc/self/exe` cannot be read.
    package static var current: InstallLayout? {
        guard let path = executablePath() else { return nil }
        return InstallLayout(executableDirectory: URL(fileURLWithPath: directory(of: path), isDirectory: true))
    }

    /// The running executable's path, read with `readlink(2)`: FileManager's
    /// `destinationOfSymbolicLink` and URL's path surgery cost a start ≈ 60,000 instructions.
    package static func executablePath() -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX) + 1) { buffer in
            let count = readlink("/proc/self/exe", buffer.baseAddress!, buffer.count)
            guard count > 0, count < buffer.count else { return nil } // an error, or cut short
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), as: UTF8.self)
        }
    }

    /// The folder part of an absolute path: everything before its last "/" ("/" for "/den").
    package static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
    }

    /// `<prefix>/lib/den`, where install.sh puts everything but the executable.
    package var libraryDirectory: URL {
        executableDirectory.deletingLastPathComponent().appendingPathComponent("lib/den", isDirectory: true)
    }

    /// True when den runs from an installed prefix rather than a build folder. The path is made
    /// by bytes and asked of `stat` (URL path surgery and FileManager cost ≈ 40,000 instructions).
    package var isInstalled: Bool {
        let executableFolder = executableDirectory.filePath
        let prefix = Self.directory(of: executableFolder.hasSuffix("/") && executableFolder.utf8.count > 1
            ? String(executableFolder.dropLast()) : executableFolder)
        var info = stat()
        return stat((prefix == "/" ? "" : prefix) + "/lib/den/modules", &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private var modulesDirectoryWhenInstalled: URL {
        libraryDirectory.appendingPathComponent("modules", isDirectory: true)
    }

    /// The bundled modules' folder: `<prefix>/lib/den/modules` when installed, else the
    /// executable's own folder (only `lib<Name>Module.so` files count there; see `PluginDiscovery`).
    package var bundledModulesDirectory: URL {
        isInstalled ? modulesDirectoryWhenInstalled : executableDirectory
    }

    /// A helper library such as `libDenHTTPTransport.so`: `<prefix>/lib/den/<name>` when installed,
    /// else beside the executable. Never in a modules folder, where it would count as a broken plugin.
    package func helperLibrary(_ name: String) -> URL {
        let installed = libraryDirectory.appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: installed.path) ? installed : executableDirectory.appendingPathComponent(name)
    }

    /// The per-user modules folder: `$XDG_DATA_HOME/den/modules`, else `~/.local/share/den/modules`.
    /// (`DEN_DATA_DIR` moves modules' data, not the user's modules.)
    package static func userModulesDirectory(environment: [String: String] = ProcessEnvironment.hostVariables()) -> URL {
        dataHome(environment).appendingPathComponent("den/modules", isDirectory: true)
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`: the one rule for den's data and user modules. The
    /// XDG spec says a relative value is invalid and must be ignored.
    package static func dataHome(_ environment: [String: String] = ProcessEnvironment.hostVariables()) -> URL {
        environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
            ?? homeDirectory().appendingPathComponent(".local/share", isDirectory: true)
    }

    /// The user's home folder: `$HOME` when it is an absolute path, as the XDG rules and every
    /// shell take it; else the account's, from the user database (FileManager). `$HOME` first
    /// also spares a start FileManager's first use (≈ 30,000 instructions).
    package static func homeDirectory() -> URL {
        if let home = ProcessEnvironment.value("HOME"), home.hasPrefix("/") { return URL(fileURLWithPath: home, isDirectory: true) }
        return FileManager.default.homeDirectoryForCurrentUser
    }
}
