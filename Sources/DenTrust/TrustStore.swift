import DenHost
import DenLibraryClients
import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The keys den trusts and the ones revoked (docs/SIGNING.md, "Keys"). Two lists count:
/// the user's `<config>/trusted-keys` (what `den keys trust|revoke` write) and the install's
/// `<prefix>/lib/den/trusted-keys` (the key `Scripts/install.sh` signed the bundled modules
/// with). A revocation in either list wins over a trust in the other.
///
/// One line a key: `trusted <KEYID> <public key base64> <publisher name>` or
/// `revoked <KEYID> <public key base64 or -> <publisher name>`; `#` starts a comment.
package struct TrustStore: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        package var revoked: Bool
        package var keyID: String
        package var key: Minisign.PublicKey?
        package var publisher: String

        package init(revoked: Bool, keyID: String, key: Minisign.PublicKey?, publisher: String) {
            self.revoked = revoked
            self.keyID = keyID
            self.key = key
            self.publisher = publisher
        }
    }

    package var entries: [Entry] = []
    /// Lines that could not be read, with their file and line number (shown by `den keys list`).
    package var problems: [String] = []

    package init(entries: [Entry] = []) {
        self.entries = entries
    }

    static let fileName = "trusted-keys"

    /// `$DEN_CONFIG_DIR`, else `$XDG_CONFIG_HOME/den`, else `~/.config/den`.
    package static func configDirectory(environment: [String: String] = ProcessEnvironment.hostVariables()) -> URL {
        if let explicit = environment["DEN_CONFIG_DIR"], !explicit.trimmingWhitespace().isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
            ?? InstallLayout.homeDirectory().appendingPathComponent(".config", isDirectory: true)
        return base.appendingPathComponent("den", isDirectory: true)
    }

    package static func userFile(configDirectory: URL) -> URL { configDirectory.appendingPathComponent(fileName) }

    /// The install's list, beside its helper libraries (none for a build folder).
    package static func installFile(layout: InstallLayout? = InstallLayout.current) -> URL? {
        guard let layout, layout.isInstalled else { return nil }
        return layout.libraryDirectory.appendingPathComponent(fileName)
    }

    /// The entries of every file that exists, in order.
    package static func load(_ files: [URL]) -> TrustStore {
        var store = TrustStore()
        for file in files {
            guard let bytes = FileBytes.read(atPath: file.filePath, limit: 1 << 20) else { continue }
            store.read(String(decoding: bytes, as: UTF8.self), from: file.filePath)
        }
        return store
    }

    mutating func read(_ text: String, from source: String) {
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let words = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true).map(String.init)
            guard words.count >= 3, words[0] == "trusted" || words[0] == "revoked" else {
                problems.append("\(source):\(number + 1): not `trusted|revoked <KEYID> <key> <publisher>`; the line is ignored")
                continue
            }
            var key: Minisign.PublicKey?
            if words[2] != "-" {
                guard let parsed = try? Minisign.PublicKey(text: words[2]), parsed.keyIDText == words[1] else {
                    problems.append("\(source):\(number + 1): the public key is not a minisign key with id \(words[1]); the line is ignored")
                    continue
                }
                key = parsed
            } else if words[0] == "trusted" {
                problems.append("\(source):\(number + 1): a trusted key needs its public key; the line is ignored")
                continue
            }
            entries.append(Entry(revoked: words[0] == "revoked", keyID: words[1], key: key,
                                 publisher: words.count > 3 ? words[3] : words[1]))
        }
    }

    /// The entry that decides for `keyID`: a revocation anywhere, else the first trust.
    package func entry(for keyID: String) -> Entry? {
        entries.first { $0.keyID == keyID && $0.revoked } ?? entries.first { $0.keyID == keyID }
    }

    /// The file's text: every entry, one line each.
    package var text: String {
        "# Keys den trusts to sign modules (den keys trust|revoke; docs/SIGNING.md).\n"
            + entries.map { "\($0.revoked ? "revoked" : "trusted") \($0.keyID) \($0.key?.base64 ?? "-") \($0.publisher)\n" }.joined()
    }

    /// Writes `text` to `file` atomically (a temporary file, then rename).
    package static func write(_ text: String, to file: URL, mode: mode_t = 0o644) throws {
        let folder = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let partial = folder.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).partial")
        unlink(partial.path)
        let descriptor = open(partial.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                let failure = errno
                close(descriptor)
                unlink(partial.path)
                throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
            }
            written += count
        }
        fchmod(descriptor, mode) // the umask may have narrowed or widened nothing; say it exactly
        close(descriptor)
        guard rename(partial.path, file.path) == 0 else {
            let failure = errno
            unlink(partial.path)
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
    }
}
