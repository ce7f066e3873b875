import DenSupport
import DenTestSupport
import Foundation
import Testing

@Suite("Listing a plugin folder")
struct DirectoryListingSpec {
    @Test("every entry is listed, hidden and non-ASCII names too, but not . and ..")
    func everyEntry() throws {
        let folder = try TemporaryDirectory("den-listing")
        let names = ["libAboutModule.so", ".hidden.so", "Ünïcode Module.so", "sub", String(repeating: "n", count: 255)]
        for name in names where name != "sub" {
            try Data().write(to: folder.url.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("sub"), withIntermediateDirectories: false)
        let listed = try DirectoryListing.names(atPath: folder.url.path)
        #expect(listed.sorted() == names.sorted())
        #expect(Set(listed) == Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path)))
    }

    @Test("a filter on the names' bytes keeps only the names it accepts")
    func filtered() throws {
        let folder = try TemporaryDirectory("den-listing")
        for name in ["a.so", "b.txt", "Ünï.so", "c.so.1"] { try Data().write(to: folder.url.appendingPathComponent(name)) }
        let listed = try DirectoryListing.names(atPath: folder.url.path, keeping: { $0.last == UInt8(ascii: "o") })
        #expect(listed.sorted() == ["a.so", "Ünï.so"].sorted())
    }

    @Test("an empty folder lists nothing")
    func emptyFolder() throws {
        let folder = try TemporaryDirectory("den-listing")
        #expect(try DirectoryListing.names(atPath: folder.url.path).isEmpty)
    }

    @Test("a missing folder and a file each fail with the system's reason")
    func failures() throws {
        let folder = try TemporaryDirectory("den-listing")
        #expect(throws: DirectoryListingError.self) { try DirectoryListing.names(atPath: folder.url.path + "/missing") }
        do {
            _ = try DirectoryListing.names(atPath: folder.url.path + "/missing")
        } catch {
            #expect(error.reason == "No such file or directory")
        }
        let file = folder.url.appendingPathComponent("plain.so")
        try Data().write(to: file)
        do {
            _ = try DirectoryListing.names(atPath: file.path)
            Issue.record("a file was listed as a folder")
        } catch {
            #expect(error.reason == "Not a directory")
        }
    }
}
