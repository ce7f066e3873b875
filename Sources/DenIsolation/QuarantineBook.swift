import DenHost
import DenLibraryClients
import DenSupport
import FoundationEssentials
import Synchronization

/// Module files quarantined after a crash loop, by content hash, kept in `quarantine.json` in
/// den's data folder so that `den plugins` (another process) shows them and
/// `den modules release` lifts them (docs/ISOLATION.md, "Crash loops").
package final class QuarantineBook: Sendable {
    package struct Entry: Codable, Sendable, Equatable {
        package var hash: String
        package var file: String
        package var module: String
        package var reason: String
        package var at: String
    }

    private struct Document: Codable {
        var v = 1
        var files: [Entry] = []
    }

    /// Crashes within `window` that quarantine a file.
    package let crashes: Int
    package let window: Duration
    package let path: String?
    private let lock = Mutex<Void>(())

    package init(directory: URL?, crashes: Int = 3, window: Duration = .seconds(300)) {
        path = directory?.appendingPathComponent("quarantine.json").path
        self.crashes = crashes
        self.window = window
    }

    package var entries: [Entry] {
        lock.withLock { _ in read().files }
    }

    package func isQuarantined(_ hash: String) -> Bool {
        entries.contains { $0.hash == hash }
    }

    package func record(hash: String, file: String, module: String, reason: String) {
        lock.withLock { _ in
            var document = read()
            document.files.removeAll { $0.hash == hash }
            document.files.append(Entry(hash: hash, file: file, module: module, reason: reason, at: UTCTime.iso8601(Date())))
            write(document)
        }
    }

    /// Lifts the quarantine of the files whose hash starts with `key` (at least 8 hex digits) or
    /// whose module is named `key`; the entries lifted.
    package func release(_ key: String) -> [Entry] {
        lock.withLock { _ in
            var document = read()
            let matches: (Entry) -> Bool = { entry in
                entry.module == key || (key.count >= 8 && entry.hash.hasPrefix(key.lowercased()))
            }
            let released = document.files.filter(matches)
            document.files.removeAll(where: matches)
            if !released.isEmpty { write(document) }
            return released
        }
    }

    private func read() -> Document {
        guard let path, let bytes = FileBytes.read(atPath: path, limit: 1 << 20),
              let document = try? JSONDecoder().decode(Document.self, from: Data(bytes)) else { return Document() }
        return document
    }

    private func write(_ document: Document) {
        guard let path, let data = try? JSONEncoder().encode(document) else { return }
        try? PrivateFolder.write(data, to: URL(fileURLWithPath: path))
    }
}

/// A module file's content hash: SHA-256 (libDenCrypto.so) in hex, or, where that library is
/// missing, a 64-bit FNV-1a marked as such (enough to tell versions of one file apart).
package enum ContentHash {
    package static func of(path: String) -> String {
        guard let bytes = FileBytes.read(atPath: path, limit: 512 << 20) else { return "unreadable" }
        if let digest = try? CryptoLibrary.shared.sha256(bytes) {
            return digest.map { byte in String(byte, radix: 16).leftPadded(to: 2) }.joined()
        }
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        return "fnv1a64-" + String(hash, radix: 16).leftPadded(to: 16)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
