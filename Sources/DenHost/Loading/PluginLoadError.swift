import CDenABI
import DenExports
import DenModuleFiles
import DenSupport
/// Why a plugin file was not loaded. Every message names the file, the cause and the fix.
public struct PluginLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Cause: Sendable, Equatable {
        case unreadable(String)
        case cacheUnwritable(directory: String, detail: String)
        case emptyFile
        case notELF
        case wrongArchitecture(found: String, expected: String)
        case truncated(size: UInt64, required: UInt64)
        case openFailed(String)
        case missingSymbol(String)
        /// `den_abi_version` is exported, but not as a 4-byte object.
        case malformedABIVersion(size: Int)
        case abiMismatch(found: UInt32, expected: UInt32)
        case toolchainMismatch(found: String, expected: String)
        case entryFailed(status: Int32, detail: String?)
        case invalidRegistration(String)
        case duplicateModule(id: String, existingFile: String)
        case routeConflict(String)
        case invalidManifest(String)
        case manifestMismatch([String])
        case changedSinceStart(String)
        /// An isolated module's worker could not start or register it (docs/ISOLATION.md).
        case workerFailed(String)
        /// A module without a manifest, run in a worker to learn its id (modules are isolated by
        /// id), whose worker could not start or register it: it is not loaded in-process either.
        case idUnknown(String)
        /// The file crashed in a loop and is quarantined by its content hash.
        case quarantined(String)
        /// The trust policy refuses it for its signature (ModuleTrust): what is wrong, what to do.
        case untrusted(reason: String, fix: String)
        /// It asks for permissions the user has not granted (PermissionBook): what, and what to do.
        case permissionsHeld(reason: String, fix: String)
        /// A requirement of its manifest's `requires` is not met (docs/CATALOG.md, "Requirements").
        case requirementUnmet(String)
    }

    /// The plugin file as the user named it (not the cache copy).
    package var file: String
    package var cause: Cause
    /// The module's id when the file told it before failing (its manifest, or `describe`), so
    /// `den plugins` and `den modules remove` can name the module and not only its file.
    package var moduleID: String?
    /// The route patterns its manifest declares, when the file has one: a visitor who opens one
    /// of them is told why the module is missing. nil when den cannot know the module's routes.
    package var manifestRoutes: [String]?

    package init(file: String, cause: Cause, moduleID: String? = nil) {
        self.file = file
        self.cause = cause
        self.moduleID = moduleID
    }

    /// Whether another module landing may meet what is missing (a requirement on a module, not
    /// on den itself, nor one den cannot read): a hot swap tries such a file again after each swap.
    package var waitsForAnotherModule: Bool {
        guard case .requirementUnmet(let detail) = cause else { return false }
        return !detail.hasPrefix("requires den ") && !detail.hasPrefix("has a version") && !detail.contains("dependency cycle")
    }

    /// One line, sanitised: the file name, dlerror's text and a module's registration text are
    /// not trusted to be printable.
    public var description: String { ModuleText.singleLine("\(file): \(reason) — \(fix)") }

    /// What went wrong, in one clause.
    package var reason: String {
        switch cause {
        case .unreadable(let detail): "cannot read the file (\(detail))"
        case .cacheUnwritable(let directory, let detail): "cannot copy it into the plugin cache \(directory) (\(detail))"
        case .emptyFile: "the file is empty"
        case .notELF: "not a shared library (no ELF header)"
        case .wrongArchitecture(let found, let expected): "built for \(found), but this host runs on \(expected)"
        case .truncated(let size, let required):
            "the library is truncated: its headers need \(required) bytes but the file has \(size) (an interrupted copy or build?)"
        case .openFailed(let detail): "the dynamic loader refused it: \(detail)"
        case .missingSymbol(let symbol): "it does not export `\(symbol)`"
        case .malformedABIVersion(let size): "its `den_abi_version` is \(size) bytes, not a 4-byte `uint32_t` (a wider integer, or a function?)"
        case .abiMismatch(let found, let expected): "it speaks Den ABI version \(found), this host speaks version \(expected)"
        case .toolchainMismatch(let found, let expected):
            "it was built by another Swift toolchain (\(found); the host's is \(expected))"
        case .entryFailed(let status, let detail):
            "its entry point returned \(StatusText.name(status)) (\(status))\(detail.map { ": \($0)" } ?? "")"
        case .invalidRegistration(let detail): "it registered itself wrongly: \(detail)"
        case .duplicateModule(let id, let existing): "module id '\(id)' is already provided by \(existing)"
        case .routeConflict(let detail): detail
        case .invalidManifest(let detail): "its manifest (`den_manifest`) is refused: \(detail)"
        case .manifestMismatch(let differences):
            "what it registered does not match its manifest (`den_manifest`): \(differences.joined(separator: "; "))"
        case .changedSinceStart(let detail): "the file changed after den started: \(detail)"
        case .workerFailed(let detail): "it runs isolated, and \(detail)"
        case .idUnknown(let detail):
            "it has no manifest, so den runs its entry point in a worker to learn its id before it may enter den's process (--isolate or den.hosting names modules to isolate), and \(detail)"
        case .quarantined(let detail): "it \(detail)"
        case .untrusted(let reason, _): reason
        case .permissionsHeld(let reason, _): "held: \(reason)"
        case .requirementUnmet(let detail): "not loaded: it \(detail)"
        }
    }

    /// What to do about it.
    package var fix: String {
        switch cause {
        case .unreadable: "check that the file exists and is readable"
        case .cacheUnwritable: "make that folder writable, or choose another with --cache-dir or DEN_CACHE_DIR"
        case .openFailed(let detail) where detail.contains("undefined symbol"):
            "the plugin uses a symbol that neither it nor the libraries it links define: link the library that provides it, or stop using it (a Swift plugin built against another DenKit: rebuild it against this den's); `nm -D --undefined-only` on the file lists what it needs"
        case .openFailed(let detail) where detail.contains("cannot open shared object file"):
            "a library the plugin links is missing: install it, or put it where the plugin's RUNPATH points (`ldd` on the file shows which one)"
        case .emptyFile, .notELF, .openFailed, .truncated:
            "rebuild the plugin, or remove the file from the plugin folder"
        case .wrongArchitecture: "rebuild the plugin on this machine"
        case .missingSymbol(let symbol) where symbol == "den_module_entry":
            "export `int32_t den_module_entry(const den_host *, const den_registrar *)` (Swift: `@_cdecl(\"den_module_entry\")` calling `DenModule.entry`)"
        case .missingSymbol, .malformedABIVersion:
            "build the module against DenKit, or add `DEN_DEFINE_ABI_VERSION();` to a C plugin (see den_module.h)"
        case .abiMismatch: "rebuild the plugin against this host's DenKit / den_module.h"
        case .toolchainMismatch: "Linux Swift has no stable ABI: rebuild the plugin with the host's toolchain"
        case .entryFailed(_, let detail?) where detail.contains(RegistrationRecorder.unknownFlagsPhrase),
             .invalidRegistration(let detail) where detail.contains(RegistrationRecorder.unknownFlagsPhrase):
            "the plugin was built against a newer den_module.h than this den's: update den, or rebuild the plugin without those route flags"
        case .entryFailed(_, let detail?) where ExportDeclaration.isExportProblem(detail),
             .invalidRegistration(let detail) where ExportDeclaration.isExportProblem(detail):
            "fix the export's declaration as the error says (docs/ABI.md, \"Exports\": the name rule, the signature notation, one declaration per name), then rebuild the plugin"
        case .entryFailed: "the plugin's own log lines, if it logged why, come before this one (den run --log-level debug shows them all); fix the plugin and rebuild it"
        case .invalidRegistration: "call describe once with a valid id and version, then add_route for each route"
        case .duplicateModule: "remove one of the two files, or give the new module another id"
        case .routeConflict: "change one of the two patterns, or drop one of the modules with --plugins"
        case .invalidManifest:
            "fix the module's manifest (module.json; docs/schema/v1/manifest.json) and rebuild it; `den plugins --inspect <file>` shows what the file holds"
        case .manifestMismatch:
            "make the manifest (module.json) and the module's registration say the same, then rebuild it; `den plugins --inspect <file>` prints the manifest"
        case .changedSinceStart: "restart den to load the new version of the file"
        case .idUnknown:
            "den does not load it in its own process meanwhile: give the module a manifest (docs/ABI.md, \"The manifest\"), isolate it by file name (--isolate \(ModuleText.singleLine(file.split(separator: "/").last.map(String.init) ?? file, limit: 100))), or check that `den worker` runs on this machine (docs/ISOLATION.md)"
        case .workerFailed: "run it in-process to see its own error (drop --isolate, or den config set den.hosting <module> in-process), or check that `den worker` runs on this machine (docs/ISOLATION.md)"
        case .quarantined: "fix the module and replace its file, or lift the quarantine with `den modules release <hash or module>`"
        case .untrusted(_, let fix): fix
        case .permissionsHeld(_, let fix): fix
        case .requirementUnmet:
            "install or update what it requires (`den modules install <id>` brings a module and what it requires from your catalogs), update this module to a version that fits what is installed (`den modules update <id>`), or remove it (docs/CATALOG.md, \"Requirements\")"
        }
    }
}

extension ManifestProbe {
    /// Why the file has no readable ABI version: not exported, or not a 4-byte object.
    var abiVersionProblem: PluginLoadError.Cause {
        abiVersionSize.map { .malformedABIVersion(size: $0) } ?? .missingSymbol(DEN_ABI_VERSION_SYMBOL)
    }
}
