import CDenABI
import DenKit
import Foundation
import Logging

/// A plugin whose entry point ran and registered itself.
public struct LoadedPlugin: @unchecked Sendable {
    public var file: URL
    /// The copy that was actually `dlopen`ed (see `PluginCache`).
    public var loadedCopy: URL
    /// True when an earlier run had already copied this version into the cache.
    public var reusedCopy: Bool = false
    public var id: String
    public var version: String
    public var summary: String
    public var routes: [PluginRoute]
    /// What the module declared with `settings.declare` while it loaded (none for older plugins).
    public var settings: [SettingDefinition] = []
    /// What the module exported with `add_export` (ABI revision 2).
    public var exports: [PluginExport] = []
    /// The `den_host` this plugin was given; its builders get the same pointer.
    let host: UnsafePointer<den_host>
    let endpoint: ServiceEndpoint
    let library: DynamicLibrary
}

/// Loads one plugin file: checks its header, loads a private copy, checks the ABI version and the
/// toolchain before running any plugin code, then calls the entry point. Never `dlclose`s.
public struct PluginLoader: Sendable {
    public let cache: PluginCache
    let hub: ServiceHub
    /// Where late registrar calls are reported.
    let logger: Logger?

    public init(cache: PluginCache, hub: ServiceHub, logger: Logger? = nil) {
        self.cache = cache
        self.hub = hub
        self.logger = logger
    }

    public func load(_ file: URL) throws(PluginLoadError) -> LoadedPlugin {
        let staged = try cache.stageCopy(file)
        do {
            var plugin = try load(file, from: staged.url)
            plugin.reusedCopy = staged.reused
            return plugin
        } catch {
            // A copy of a file that failed never loads later (a fixed file gets a new name).
            cache.discard(staged.url)
            throw error
        }
    }

    private func load(_ file: URL, from copy: URL) throws(PluginLoadError) -> LoadedPlugin {
        func fail(_ cause: PluginLoadError.Cause) -> PluginLoadError { PluginLoadError(file: file.path, cause: cause) }

        // Check the copy, the file dlopen will map: the original may be rewritten meanwhile (a
        // build in progress), and a copy never changes once written.
        try checkHeader(of: copy, reportedAs: file)
        // The ABI version and the toolchain are read from the file: dlopen would already run
        // the plugin's constructors and register its Swift types with the runtime for good.
        let exportsChecked = try checkExports(of: copy, reportedAs: file)
        let library: DynamicLibrary
        do {
            library = try DynamicLibrary.open(copy.path)
        } catch {
            // dlerror names the copy; users know the original.
            throw fail(.openFailed(error.message.replacingOccurrences(of: copy.path, with: file.lastPathComponent)))
        }
        if !exportsChecked {
            // A library stripped of section headers: check through the loader instead.
            guard let abiSymbol = library.symbol(DEN_ABI_VERSION_SYMBOL) else { throw fail(.missingSymbol(DEN_ABI_VERSION_SYMBOL)) }
            try check(abi: abiSymbol.load(as: UInt32.self), file: file)
            if let toolchainSymbol = library.symbol(DEN_TOOLCHAIN_SYMBOL) {
                try check(toolchain: String(cString: toolchainSymbol.assumingMemoryBound(to: CChar.self)), file: file)
            }
        }
        guard let entrySymbol = library.symbol(DEN_ENTRY_SYMBOL) else { throw fail(.missingSymbol(DEN_ENTRY_SYMBOL)) }
        let entry = unsafeBitCast(entrySymbol, to: den_module_entry_fn.self)

        let endpoint = hub.makeEndpoint(file: file.lastPathComponent)
        // Service calls count as the module's only once the registry has installed it.
        let recorder = RegistrationRecorder(file: file.lastPathComponent, logger: logger)
        let status = recorder.withRegistrar { entry(endpoint.host, $0) }
        endpoint.settings.close()
        guard status == DEN_OK.rawValue else {
            endpoint.revoke()
            throw fail(.entryFailed(status: status, detail: recorder.problems.first))
        }
        guard let id = recorder.id, let version = recorder.version else {
            endpoint.revoke()
            throw fail(.invalidRegistration(recorder.problems.first ?? "it never called describe"))
        }
        if let problem = recorder.problems.first ?? endpoint.settings.problem {
            endpoint.revoke()
            throw fail(.invalidRegistration(problem))
        }
        return LoadedPlugin(file: file, loadedCopy: copy, id: id, version: version, summary: recorder.summary ?? "",
                            routes: recorder.routes, settings: endpoint.settings.settings, exports: recorder.exports,
                            host: endpoint.host, endpoint: endpoint, library: library)
    }

    /// Checks the ABI version and the toolchain from the file; false when the file has no
    /// section headers to read them from.
    private func checkExports(of copy: URL, reportedAs file: URL) throws(PluginLoadError) -> Bool {
        guard let reader = ELFSymbolReader(path: copy.path) else { return false }
        defer { reader.finish() }
        let values = reader.values(of: [DEN_ABI_VERSION_SYMBOL, DEN_TOOLCHAIN_SYMBOL], maximum: 512)
        guard let abi = values[DEN_ABI_VERSION_SYMBOL], abi.count == 4 else {
            throw PluginLoadError(file: file.path, cause: .missingSymbol(DEN_ABI_VERSION_SYMBOL))
        }
        try check(abi: UInt32(abi[0]) | UInt32(abi[1]) << 8 | UInt32(abi[2]) << 16 | UInt32(abi[3]) << 24, file: file)
        if let toolchain = values[DEN_TOOLCHAIN_SYMBOL] {
            try check(toolchain: String(decoding: toolchain.prefix { $0 != 0 }, as: UTF8.self), file: file)
        }
        return true
    }

    private func check(abi: UInt32, file: URL) throws(PluginLoadError) {
        guard abi == DEN_ABI_VERSION else {
            throw PluginLoadError(file: file.path, cause: .abiMismatch(found: abi, expected: DEN_ABI_VERSION))
        }
    }

    private func check(toolchain: String, file: URL) throws(PluginLoadError) {
        guard toolchain == DenModule.toolchain else {
            throw PluginLoadError(file: file.path, cause: .toolchainMismatch(found: toolchain, expected: DenModule.toolchain))
        }
    }

    private func checkHeader(of copy: URL, reportedAs file: URL) throws(PluginLoadError) {
        func fail(_ cause: PluginLoadError.Cause) -> PluginLoadError { PluginLoadError(file: file.path, cause: cause) }
        let header: ELFHeader?, fileSize: UInt64
        do {
            (header, fileSize) = try ELFHeader.read(copy)
        } catch {
            throw fail(.unreadable(error.description))
        }
        if fileSize == 0 { throw fail(.emptyFile) }
        guard let header, header.isELF else { throw fail(.notELF) }
        let host = ELFHeader.hostMachine
        if header.machine != host.machine || header.is64Bit != host.is64Bit {
            throw fail(.wrongArchitecture(found: ELFHeader.architecture(of: header.machine, is64Bit: header.is64Bit),
                                          expected: ELFHeader.architecture(of: host.machine, is64Bit: host.is64Bit)))
        }
        if header.requiredSize > fileSize { throw fail(.truncated(size: fileSize, required: header.requiredSize)) }
    }
}
