import DenSupport
import Foundation
import Testing

/// The start path asks file URLs for their path and name without FoundationEssentials' first-use
/// cost; the answers must be FoundationEssentials' own.
@Suite("File URLs' paths and names, read by bytes")
struct URLFilePathSpec {
    static let paths = [
        "/tmp/a b/c.so", "/tmp/100%/x", "/tmp/é/ü.so", "/tmp/x/", "/tmp/x//", "/", "//", "//tmp//a", "/tmp/./a/../b",
        "rel/x.so", "./rel", "", "/tmp/a%20b", "/tmp/#?;[]@!$&'()*+,=", "/tmp/a:b", "~/x", "/tmp/\u{1F98A}.so",
        "/tmp/tab\there", "/tmp/libAboutModule.so", "/tmp/.hidden", "/tmp/x.tar.gz",
    ]

    @Test("filePath and fileName read as path and lastPathComponent do", arguments: paths, [false, true])
    func matchesFoundation(path: String, isDirectory: Bool) {
        let url = URL(fileURLWithPath: path, isDirectory: isDirectory)
        #expect(url.filePath == url.path)
        #expect(url.fileName == url.lastPathComponent)
    }

    @Test("a file name appended to a folder is the URL appendingPathComponent makes", arguments: paths)
    func appending(folder: String) {
        let url = URL(fileURLWithPath: folder, isDirectory: true)
        for name in ["libX.so", "a b.so", "ü%.so"] {
            #expect(url.appendingFileName(name).path == url.appendingPathComponent(name).path)
            #expect(url.appendingFileName(name).filePath == url.appendingPathComponent(name).path)
        }
    }
}
