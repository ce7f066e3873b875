import DenCatalog
import DenLibraryClients
import DenLibraryContracts
import DenSupport
import DenTrust
import Foundation

/// Reads a catalog's index from a folder or an http(s) address and decides whether to believe
/// it (docs/CATALOG.md, "Reading a catalog"): signed by a key on the trust list and not revoked,
/// the signature over these bytes, its trusted comment naming the index's serial, the index
/// valid, and its serial no lower than one already seen from that catalog (an old index cannot be
/// replayed to force a downgrade) nor its key another than the one first seen there.
struct CatalogReader {
    /// The largest index den reads: an endless or hostile answer stops here.
    static let maximumIndexBytes = 16 << 20
    /// How long one fetch may take before den gives up on a server that hangs.
    var timeoutMilliseconds = 30_000
    var trust: TrustStore
    var crypto: SigningLibrary = .shared

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A believed index, with the key that signed it.
    struct Read {
        var index: CatalogIndex
        var keyID: String
        var publisher: String
    }

    func read(_ source: CatalogSources.Source) throws(Failure) -> Read {
        let data = try fetch(source.location, "index.json", limit: Self.maximumIndexBytes)
        let signatureData = try fetch(source.location, "index.json.minisig", limit: 64 * 1024)
        let signature: Minisign.Signature
        do { signature = try Minisign.Signature(text: String(decoding: signatureData, as: UTF8.self)) } catch {
            throw Failure("\(source.location): index.json.minisig is not a minisign signature: \(error)")
        }
        let keyID = signature.keyIDText
        guard let entry = trust.entry(for: keyID) else {
            throw Failure("\(source.location) is signed by key \(keyID), which is not on your trust list; if you trust its publisher, den keys trust <their .pub file> (docs/SIGNING.md)")
        }
        guard !entry.revoked, let publicKey = entry.key else {
            throw Failure("\(source.location) is signed by \(entry.publisher)'s key \(keyID), which you revoked; den reads nothing from it")
        }
        if let pinned = source.keyID, pinned != keyID {
            throw Failure("\(source.location) is now signed by key \(keyID), not \(pinned) as before; if the publisher changed keys, remove the source and add it again (den modules sources remove|add)")
        }
        let problem: Minisign.Problem?
        do { problem = try MinisignVerifier.problem(with: Array(data), signature: signature, publicKey: publicKey, crypto: crypto) } catch {
            throw Failure("cannot check \(source.location)'s signature: \(error)")
        }
        if let problem { throw Failure("\(source.location): index.json does not match its signature (\(problem)); den reads nothing from it") }
        let index: CatalogIndex
        do { index = try CatalogIndex.decode(data) } catch { throw Failure("\(source.location): index.json is not a catalog index: \(error)") }
        guard signature.trustedComment == CatalogPublisher.commentPrefix(serial: index.serial) else {
            throw Failure("\(source.location): the signature names '\(signature.trustedComment)', not the index's serial \(index.serial); den reads nothing from it")
        }
        do { try index.validate() } catch { throw Failure("\(source.location): \(error)") }
        if let seen = source.serial, index.serial < seen {
            throw Failure("\(source.location) offers index serial \(index.serial), older than serial \(seen) den read there before; an old index could bring back versions since withdrawn, so den refuses it (a mirror that is behind? try again later)")
        }
        return Read(index: index, keyID: keyID, publisher: entry.publisher)
    }

    /// One file of the catalog: from the folder, or over http(s) through den's own transport.
    /// `progress` hears the bytes received so far: as they arrive over http(s), or once for a
    /// folder's file, whose copy is instant.
    func fetch(_ location: String, _ path: String, limit: Int, progress: (@Sendable (Int64) -> Void)? = nil) throws(Failure) -> Data {
        if CatalogSources.isRemote(location) {
            let url = location + "/" + path
            let request = TransportRequest(url: url, headers: [:], timeoutMilliseconds: timeoutMilliseconds, maxBytes: limit, followsRedirects: true)
            let outcome: TransportOutcome
            do {
                if let progress { outcome = try HTTPTransport.shared.get(request, progress: progress) } else { outcome = try HTTPTransport.shared.get(request) }
            } catch { throw Failure("cannot fetch \(url): \(error.message)") }
            switch outcome {
            case .fetched(let status, _, let body):
                guard status == 200 else { throw Failure("\(url) answered \(status)\(status == 404 ? " (not a catalog there?)" : "")") }
                return body
            case .failed(.timedOut):
                throw Failure("\(url) sent no whole answer within \(timeoutMilliseconds / 1000) s; the server hangs or is too slow")
            case .failed(.tooLarge):
                throw Failure("\(url) sent more than \(limit) bytes, more than a catalog's \(path) can be; den stopped reading")
            case .failed(.transport(_, let description)):
                throw Failure("cannot fetch \(url): \(description)")
            }
        }
        let file = URL(fileURLWithPath: location).appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: file.path) else { throw Failure("\(file.path) does not exist (not a catalog folder?)") }
        guard let bytes = FileBytes.read(atPath: file.filePath, limit: limit) else {
            throw Failure("cannot read \(file.path), or it is over \(limit) bytes")
        }
        progress?(Int64(bytes.count))
        return Data(bytes)
    }
}
