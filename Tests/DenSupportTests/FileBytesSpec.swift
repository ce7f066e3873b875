import DenSupport
import DenTestSupport
import Foundation
import Testing

@Suite("Reading a small file's bytes without FileManager")
struct FileBytesSpec {
    @Test("a file's bytes come back whole, across several reads, and an empty file is empty", arguments: [0, 1, 4095, 4096, 70_001])
    func whole(size: Int) throws {
        let folder = try TemporaryDirectory("den-file-bytes")
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let file = try folder.write(Data(bytes), to: "f")
        #expect(FileBytes.read(atPath: file.path) == bytes)
    }

    @Test("a missing file, a folder and a file over the limit read as nil")
    func refusals() throws {
        let folder = try TemporaryDirectory("den-file-bytes")
        #expect(FileBytes.read(atPath: folder.url.path + "/missing") == nil)
        #expect(FileBytes.read(atPath: folder.url.path) == nil, "a folder")
        let file = try folder.write(Data(repeating: 1, count: 100), to: "big")
        #expect(FileBytes.read(atPath: file.path, limit: 99) == nil)
        #expect(FileBytes.read(atPath: file.path, limit: 100)?.count == 100)
    }

    @Test("a file that cannot be opened reads as nil", .enabled(if: getuid() != 0, "root opens any file"))
    func unreadable() throws {
        let folder = try TemporaryDirectory("den-file-bytes")
        let file = try folder.write(Data("x".utf8), to: "locked")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file.path)
        #expect(FileBytes.read(atPath: file.path) == nil)
    }
}
