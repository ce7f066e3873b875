import Foundation

/// A fresh folder under the system temp folder, removed when the value is released.
package final class TemporaryDirectory: @unchecked Sendable {
    package let url: URL

    package init(_ label: String = "den-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    package func path(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Creates a subfolder.
    package func folder(_ name: String) throws -> URL {
        let folder = url.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Copies a file into `folder` (under a new name if given) and returns the copy.
    @discardableResult
    package func copy(_ file: URL, into folder: URL, as name: String? = nil) throws -> URL {
        let destination = folder.appendingPathComponent(name ?? file.lastPathComponent)
        try FileManager.default.copyItem(at: file, to: destination)
        return destination
    }

    @discardableResult
    package func write(_ contents: Data, to name: String, in folder: URL? = nil) throws -> URL {
        let destination = (folder ?? url).appendingPathComponent(name)
        try contents.write(to: destination)
        return destination
    }
}
