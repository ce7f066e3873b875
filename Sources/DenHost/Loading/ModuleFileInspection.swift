import CDenABI
import DenKit
import DenModuleFiles
import FoundationEssentials

/// What a module file says about itself, read without loading it (`den plugins --inspect`,
/// `den modules install`): its ABI version, toolchain and manifest, each judged against this host.
package struct ModuleFileInspection: Sendable, Encodable {
    package var file: String
    package var abiVersion: UInt32?
    package var toolchain: String?
    package var manifest: ModuleManifest?
    /// Why the manifest is refused (it is then nil).
    package var manifestProblem: String?
    /// What stops this host from loading the file, as far as can be told without loading it.
    package var problems: [String]
    /// Its signature under the trust policy in force, when asked for (`den plugins --inspect`).
    package var signature: SignatureInspection?

    /// The file's symbols; throws a `PluginLoadError` for a file that is no library for this machine.
    package static func inspect(_ file: URL) throws(PluginLoadError) -> ModuleFileInspection {
        func fail(_ cause: PluginLoadError.Cause) -> PluginLoadError { PluginLoadError(file: file.path, cause: cause) }
        let header: ELFHeader?, size: UInt64
        do {
            (header, size) = try ELFHeader.read(file)
        } catch {
            throw fail(.unreadable(error.description))
        }
        if size == 0 { throw fail(.emptyFile) }
        guard let header, header.isELF else { throw fail(.notELF) }
        let host = ELFHeader.hostMachine
        if header.machine != host.machine || header.is64Bit != host.is64Bit {
            throw fail(.wrongArchitecture(found: ELFHeader.architecture(of: header.machine, is64Bit: header.is64Bit),
                                          expected: ELFHeader.hostMachineName))
        }
        if header.requiredSize > size { throw fail(.truncated(size: size, required: header.requiredSize)) }
        guard let probe = ManifestProbe.read(file) else {
            throw fail(.unreadable("it has no section headers, so its symbols cannot be read without loading it"))
        }
        var inspection = ModuleFileInspection(file: file.path, abiVersion: probe.abiVersion, toolchain: probe.toolchain,
                                              manifest: nil, manifestProblem: nil, problems: [], signature: nil)
        switch probe.manifest {
        case .success(let manifest): inspection.manifest = manifest
        case .failure(let problem): inspection.manifestProblem = problem.description
        case nil: break
        }
        let errors: [PluginLoadError.Cause?] = [
            probe.abiVersion == nil ? probe.abiVersionProblem : nil,
            probe.abiVersion.flatMap { abi -> PluginLoadError.Cause? in
                abi == DEN_ABI_VERSION ? nil : .abiMismatch(found: abi, expected: DEN_ABI_VERSION)
            },
            probe.toolchain.flatMap { toolchain -> PluginLoadError.Cause? in
                toolchain == DenModule.toolchain ? nil : .toolchainMismatch(found: toolchain, expected: DenModule.toolchain)
            },
            inspection.manifestProblem.map { .invalidManifest($0) },
        ]
        inspection.problems = errors.compactMap { $0.map { PluginLoadError(file: file.path, cause: $0).description } }
        return inspection
    }

    /// Adds what `trust` says of the file's signature; a refusal is one more problem.
    package mutating func judgeSignature(_ trust: ModuleTrust) {
        let signature = trust.inspection(of: file, id: manifest?.id, version: manifest?.version)
        self.signature = signature
        if signature.decision == "refused" {
            problems.append(PluginLoadError(file: file, cause: .untrusted(reason: signature.reason ?? signature.text, fix: signature.fix ?? ""),
                                            moduleID: manifest?.id).description)
        }
    }

    /// This host's ABI version and toolchain, to print beside a file's.
    package static var hostABIVersion: UInt32 { DEN_ABI_VERSION }
    package static var hostToolchain: String { DenModule.toolchain }
}
