import FoundationEssentials

/// Creating den's data folder: it holds password hashes and every module's data, so whichever
/// command creates it first (`den config set`, a quarantine, the storage engine) makes it 0700,
/// and every file den writes there is 0600. An existing folder keeps its mode (README, "Private").
package enum PrivateFolder {
    /// Creates `folder` and any missing parents with mode 0700; nothing when it exists.
    package static func create(_ folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    /// Writes `data` to `file` atomically, readable by its owner only.
    package static func write(_ data: Data, to file: URL) throws {
        try create(file.deletingLastPathComponent())
        try data.write(to: file, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }
}
