import DenCatalog
import DenHost
import DenSupport
import DenTrust
import Foundation

/// `den modules install <id>[@<range>]`: the module and what it requires, resolved against your
/// catalogs (docs/CATALOG.md, "Installing by name"), each file fetched, held to the index's size
/// and SHA-256 and to its manifest, then installed as `den modules install <file>` installs one,
/// dependencies first.
struct CatalogInstall {
    let id: String
    let range: VersionRequirement
    let text: String
    /// `den modules update`: which installed modules may move to a newer version.
    var update: UpdatePolicy = .none
    /// More requests beside `id` (`den modules update` asks for every module it updates).
    var others: [String: VersionRequirement] = [:]

    /// The request an argument makes, or nil when it names a file (an existing path, anything with
    /// a '/' or ending in .so).
    static func request(_ argument: String) throws(CatalogReader.Failure) -> CatalogInstall? {
        if argument.contains("/") || argument.hasSuffix(".so") || FileManager.default.fileExists(atPath: argument) { return nil }
        let parts = argument.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        // A module id: 1–64 of a-z, 0-9, '-' and '_', starting with a letter or digit (docs/ABI.md).
        let id = parts[0]
        guard (1...64).contains(id.utf8.count), id.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F }),
              let first = id.utf8.first, first != 0x2D, first != 0x5F else { return nil }
        guard parts.count == 2 else { return CatalogInstall(id: parts[0], range: .any, text: argument) }
        do { return CatalogInstall(id: parts[0], range: try VersionRequirement(parsing: parts[1]), text: argument) } catch {
            throw CatalogReader.Failure("\(argument): \(error)")
        }
    }

    /// A file the plan installs, fetched into `folder` and checked.
    struct Fetched {
        var step: ResolutionPlan.Step
        var file: URL
    }

    /// Resolves the request, fetches and checks every file of the plan into `folder`, and returns
    /// them in the order to install them. Nothing is installed here: a failure leaves your modules
    /// as they were.
    func prepare(into folder: URL, installed: [String: ModuleRelease], denVersion: SemanticVersion,
                 progress: ProgressLine) throws -> [Fetched] {
        let context = try CatalogCommand()
        let reads = try context.readAll()
        // One entry per id and version: the first source that lists it.
        var entries: [String: (entry: CatalogEntry, source: String)] = [:]
        var releases: [ModuleRelease] = []
        for (source, read) in reads {
            for (moduleID, versions) in read.index.modules {
                for entry in versions where entries["\(moduleID)@\(entry.version)"] == nil {
                    guard let release = try? ModuleRelease(id: moduleID, version: entry.version, requires: entry.manifest.requires) else { continue }
                    entries["\(moduleID)@\(release.version)"] = (entry, source.location)
                    releases.append(release)
                }
            }
        }
        var requests = others
        if !id.isEmpty { requests[id] = range }
        let request = ResolutionRequest(requests: requests, denVersion: denVersion, installed: installed,
                                        pins: context.sources.pinnedVersions, update: update)
        let plan: ResolutionPlan
        switch DependencyResolver(catalog: CatalogSnapshot(releases)).resolve(request) {
        case .success(let resolved): plan = resolved
        case .failure(let failure): throw CatalogReader.Failure("cannot install \(text): \(failure)")
        }
        var fetched: [Fetched] = []
        let reader = context.reader
        var planned: [(step: ResolutionPlan.Step, entry: CatalogEntry, source: String)] = []
        for step in plan.steps {
            guard let (entry, source) = entries["\(step.release.id)@\(step.release.version)"] else {
                throw CatalogReader.Failure("the plan names \(step.release), which no catalog lists (den internal error)")
            }
            planned.append((step, entry, source))
        }
        // Sizes from the signed index, not the server's Content-Length: the fetch is held to them.
        let planSize = planned.reduce(Int64(0)) { sum, item in
            let (total, overflow) = sum.addingReportingOverflow(Int64(clamping: item.entry.size))
            return overflow ? .max : total
        }
        var before: Int64 = 0
        defer { progress.finish() } // a failure's message then starts on a clean line
        for (number, (step, entry, source)) in planned.enumerated() {
            let size = Int64(clamping: entry.size), files = planned.count, done = before, label = "fetching \(step.release)"
            // Called from the transport's thread, at most ten times a second (den_libraries.h).
            let show: @Sendable (Int64) -> Void = { received in
                let bytes = min(received, size)
                progress.update(label, bytes: bytes, of: size,
                                overall: files > 1 ? .init(file: number + 1, files: files, bytes: done + bytes, size: planSize) : nil)
            }
            show(0)
            let limit = Int(clamping: entry.size)
            let bytes = try reader.fetch(source, entry.file, limit: limit, progress: show)
            before += size
            let signature = try? reader.fetch(source, entry.file + ".minisig", limit: 64 * 1024)
            try check(bytes, against: entry, from: source)
            let file = folder.appendingPathComponent(URL(fileURLWithPath: entry.file).lastPathComponent)
            do {
                try bytes.write(to: file)
                if let signature { try signature.write(to: URL(fileURLWithPath: file.path + ".minisig")) }
            } catch { throw CatalogReader.Failure("cannot write \(file.path): \(error.localizedDescription)") }
            let inspection: ModuleFileInspection
            do { inspection = try ModuleFileInspection.inspect(file) } catch { throw CatalogReader.Failure("\(source)/\(entry.file): \(error)") }
            guard let manifest = inspection.manifest, manifest.id == step.release.id, manifest.version == entry.version else {
                throw CatalogReader.Failure("\(source)/\(entry.file) is not \(step.release) as the index says (its manifest names \(inspection.manifest.map { "\($0.id) \($0.version)" } ?? "nothing")); den installs nothing from it")
            }
            fetched.append(Fetched(step: step, file: file))
        }
        return fetched
    }

    /// The file is the one the signed index names: its size and SHA-256.
    private func check(_ bytes: Data, against entry: CatalogEntry, from source: String) throws(CatalogReader.Failure) {
        guard UInt64(bytes.count) == entry.size else {
            throw CatalogReader.Failure("\(source)/\(entry.file) is \(bytes.count) bytes, not the \(entry.size) its index says; den installs nothing from it")
        }
        let sha: [UInt8]
        do { sha = try SigningLibrary.shared.sha256(Array(bytes)) } catch { throw CatalogReader.Failure("cannot hash \(entry.file): \(error)") }
        guard ModuleSignature.hex(sha) == entry.sha256 else {
            throw CatalogReader.Failure("\(source)/\(entry.file) has SHA-256 \(ModuleSignature.hex(sha).prefix(16))…, not the \(entry.sha256.prefix(16))… its signed index names: the file was changed or swapped; den installs nothing from it")
        }
    }

    /// The modules a den would run now (`ModuleInstaller.activeModules`), as the resolver keeps them.
    static func installed(_ active: [(id: String, version: String)]) -> [String: ModuleRelease] {
        var installed: [String: ModuleRelease] = [:]
        for (id, version) in active {
            guard let release = try? ModuleRelease(id: id, version: version, requires: [:]) else { continue }
            installed[id] = release
        }
        return installed
    }
}
