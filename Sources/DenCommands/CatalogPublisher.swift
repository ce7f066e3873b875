import DenCatalog
import DenHost
import DenSupport
import DenTrust
import Foundation

/// `den modules publish`: adds one module file to a catalog folder (docs/CATALOG.md) and signs
/// what changed. The folder is plain files any web server can serve:
///
///     index.json                       every module's versions (CatalogIndex), serial raised by one
///     index.json.minisig               its minisign signature, trusted comment `den-catalog serial=<n>`
///     files/<id>/<id>-<version>.so     the module file, never replaced
///     files/<id>/<id>-<version>.so.minisig   its module signature (den modules sign's)
///
/// One key signs a catalog: a publish with another key is refused, so a reader trusts one key per
/// catalog. Publishes are serialised by a lock on `.publish.lock` in the folder.
struct CatalogPublisher {
    let folder: URL
    let key: Minisign.SecretKey
    var crypto: SigningLibrary = .shared

    /// Why a publish did nothing (the same failure as reading a catalog: what, and what to do).
    typealias Failure = CatalogReader.Failure

    struct Published {
        var id: String
        var version: String
        var file: String
        var serial: UInt64
    }

    static let indexName = "index.json"
    static func commentPrefix(serial: UInt64) -> String { "den-catalog serial=\(serial)" }

    func publish(_ file: URL, now: Date = Date()) throws(Failure) -> Published {
        let inspection: ModuleFileInspection
        do { inspection = try ModuleFileInspection.inspect(file) } catch { throw Failure("\(file.path): \(error)") }
        guard let manifest = inspection.manifest else {
            throw Failure("\(file.path) has no manifest (`den_manifest`)\(inspection.manifestProblem.map { ": \($0)" } ?? ""); a catalog lists a module by its manifest, so add one (module.json; docs/ABI.md, \"The manifest\") and rebuild it")
        }
        if let problem = inspection.problems.first {
            throw Failure("\(file.path) is not a module this den can load: \(problem)")
        }
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw Failure("cannot create the catalog folder \(folder.path): \(error.localizedDescription)")
        }
        let lock = try Lock(folder.appendingPathComponent(".publish.lock"))
        defer { lock.release() }

        var index = try readIndex()
        let relative = "files/\(manifest.id)/\(manifest.id)-\(manifest.version).so"
        if index.modules[manifest.id, default: []].contains(where: { SemanticVersion($0.version) == SemanticVersion(manifest.version) }) {
            throw Failure("\(manifest.id) \(manifest.version) is in \(folder.path) already; a published version never changes, so raise the version in module.json and publish that")
        }
        guard let bytes = FileBytes.read(atPath: file.filePath, limit: 1 << 30) else { throw Failure("cannot read \(file.path)") }
        let target = folder.appendingPathComponent(relative)
        do {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try write(Data(bytes), to: target)
            try ModuleSigner.sign(target, with: key, crypto: crypto)
        } catch let failure as KeyRing.Failure {
            throw Failure("cannot sign \(target.path): \(failure)")
        } catch {
            throw Failure("cannot write \(target.path): \(error.localizedDescription)")
        }
        let sha256: [UInt8]
        do { sha256 = try crypto.sha256(bytes) } catch { throw Failure("cannot hash \(file.path): \(error)") }
        let entry = CatalogEntry(version: manifest.version, file: relative, sha256: ModuleSignature.hex(sha256), size: UInt64(bytes.count),
                                 publisher: key.publicKeyValue.keyIDText,
                                 manifest: CatalogManifest(id: manifest.id, version: manifest.version, summary: manifest.summary,
                                                           requires: manifest.requires, permissions: manifest.permissions))
        index.modules[manifest.id, default: []].append(entry)
        // Oldest first, by SemVer precedence: a reader sees the versions in order.
        index.modules[manifest.id]?.sort { first, second in
            guard let a = SemanticVersion(first.version), let b = SemanticVersion(second.version) else { return first.version < second.version }
            return a < b
        }
        index.serial += 1
        index.generated = UTCTime.iso8601(now)
        do { try index.validate() } catch { throw Failure("the new index would not be valid: \(error)") }
        try writeIndex(index)
        return Published(id: manifest.id, version: manifest.version, file: relative, serial: index.serial)
    }

    /// The folder's index, checked against its signature by this key; an empty index (serial 0)
    /// for a new catalog.
    private func readIndex() throws(Failure) -> CatalogIndex {
        let url = folder.appendingPathComponent(Self.indexName)
        guard FileManager.default.fileExists(atPath: url.path) else { return CatalogIndex(serial: 0, generated: "", modules: [:]) }
        guard let data = try? Data(contentsOf: url) else { throw Failure("cannot read \(url.path)") }
        let signatureURL = URL(fileURLWithPath: url.path + ".minisig")
        guard let text = try? String(contentsOf: signatureURL, encoding: .utf8), let signature = try? Minisign.Signature(text: text) else {
            throw Failure("\(url.path) has no readable signature beside it (\(signatureURL.lastPathComponent)); den publishes only to a catalog it signed itself")
        }
        guard signature.keyID == key.keyID else {
            throw Failure("\(folder.path) is signed by key \(signature.keyIDText), not \(key.publicKeyValue.keyIDText); publish with that catalog's key (--key), or to another folder")
        }
        let problem: Minisign.Problem?
        do { problem = try MinisignVerifier.problem(with: Array(data), signature: signature, publicKey: key.publicKeyValue, crypto: crypto) } catch {
            throw Failure("cannot check \(signatureURL.path): \(error)")
        }
        if let problem {
            throw Failure("\(url.path) does not match its signature: \(problem); restore the catalog's index from a copy you trust before publishing to it")
        }
        let index: CatalogIndex
        do { index = try CatalogIndex.decode(data) } catch { throw Failure("\(url.path) is not a catalog index: \(error)") }
        do { try index.validate() } catch { throw Failure("\(url.path) is not a valid catalog index: \(error)") }
        guard signature.trustedComment == Self.commentPrefix(serial: index.serial) else {
            throw Failure("\(signatureURL.path) names '\(signature.trustedComment)', not serial \(index.serial); the index and its signature disagree")
        }
        return index
    }

    /// Writes the index, then its signature: each by a rename, so a reader sees a whole file.
    private func writeIndex(_ index: CatalogIndex) throws(Failure) {
        let url = folder.appendingPathComponent(Self.indexName)
        do {
            let data = try index.json()
            let signature = try MinisignSigner.sign(Array(data), comment: Self.commentPrefix(serial: index.serial), with: key, crypto: crypto)
            try write(data, to: url)
            try write(Data(signature.fileText.utf8), to: URL(fileURLWithPath: url.path + ".minisig"))
        } catch let failure as KeyRing.Failure {
            throw Failure("cannot sign \(url.path): \(failure)")
        } catch {
            throw Failure("cannot write \(url.path): \(error.localizedDescription)")
        }
    }

    private func write(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        try data.write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else {
            let error = errno
            try? FileManager.default.removeItem(at: temporary)
            throw Failure(String(cString: strerror(error)))
        }
    }

    /// An exclusive `flock` on a file in the catalog folder, for the length of one publish.
    private final class Lock {
        private let fd: Int32

        init(_ url: URL) throws(Failure) {
            fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw Failure("cannot open \(url.path): \(String(cString: strerror(errno)))") }
            guard flock(fd, LOCK_EX) == 0 else {
                close(fd)
                throw Failure("cannot lock \(url.path): \(String(cString: strerror(errno)))")
            }
        }

        func release() {
            flock(fd, LOCK_UN)
            close(fd)
        }
    }
}
