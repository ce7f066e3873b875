import CDenABI
import DenKit
import FoundationEssentials

/// What a plugin file says about itself, read from its dynamic symbol table without loading it
/// (no plugin code runs): `den_abi_version`, `den_toolchain` and `den_manifest`.
package struct ManifestProbe: Sendable, Equatable {
    package var abiVersion: UInt32?
    /// The size of a `den_abi_version` that is not a 4-byte object (a `uint64_t`, a function).
    package var abiVersionSize: Int?
    package var toolchain: String?
    /// nil when the file defines no `den_manifest`.
    package var manifest: Result<ModuleManifest, ManifestProblem>?

    /// Reads `file`; nil when it is not a 64-bit little-endian ELF file with section headers.
    package static func read(_ file: URL) -> ManifestProbe? {
        guard let reader = ELFSymbolReader(path: file.path) else { return nil }
        defer { reader.finish() }
        return read(reader)
    }

    package static func read(_ reader: ELFSymbolReader) -> ManifestProbe {
        // One byte more than allowed, so an oversized manifest is told apart from one at the limit.
        let values = reader.values(of: [DEN_ABI_VERSION_SYMBOL, DEN_TOOLCHAIN_SYMBOL, DEN_MANIFEST_SYMBOL],
                                   maximum: ModuleManifest.maximumBytes + 1)
        var probe = ManifestProbe()
        if let abi = values[DEN_ABI_VERSION_SYMBOL] {
            if abi.count == 4 {
                probe.abiVersion = UInt32(abi[0]) | UInt32(abi[1]) << 8 | UInt32(abi[2]) << 16 | UInt32(abi[3]) << 24
            } else {
                probe.abiVersionSize = abi.count
            }
        }
        if let toolchain = values[DEN_TOOLCHAIN_SYMBOL] {
            probe.toolchain = String(decoding: toolchain.prefix(512).prefix { $0 != 0 }, as: UTF8.self)
        }
        if let manifest = values[DEN_MANIFEST_SYMBOL] {
            probe.manifest = ManifestDecoding.decode(manifest)
        }
        return probe
    }
}
