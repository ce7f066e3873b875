@testable import DenHost
import Foundation
import Testing

@Suite("The registry cache's file: a line per module file, read without decoding anything")
struct RegistryCacheFormatTests {
    private func entry(_ inode: UInt64, abi: UInt32? = 2, toolchain: String? = "swift-6.3.1", manifest: String? = #"{"v":1,"id":"x"}"#,
                       eager: String? = nil) -> ManifestIndex.Entry {
        ManifestIndex.Entry(key: .init(device: 65024, inode: inode, size: 2_930_000, modifiedSeconds: 1_795_403_840,
                                       modifiedNanoseconds: 37_533_098),
                            abiVersion: abi, toolchain: toolchain, manifestJSON: manifest, eagerBecause: eager)
    }

    @Test("entries survive the file: odd paths (tab, newline, backslash, non-ASCII), absent fields, long texts")
    func roundTrip() throws {
        let entries: [String: ManifestIndex.Entry] = [
            "/m/libAboutModule.so": entry(1),
            "/m/tab\there/lib.so": entry(2, abi: nil, toolchain: nil, manifest: nil, eager: "its ELF header is not a loadable library"),
            "/m/new\nline\\back\rslash/lib.so": entry(3, manifest: #"{"summary":"a\tb\\n \u00e9 \"q\""}"#),
            "/m/café/日本/lib.so": entry(4, manifest: String(repeating: "x", count: 70_000)),
            "/m/\\é\\\\\\/lib.so": entry(5, toolchain: "\\", manifest: #"{"pattern":"jogs\/<int:id>","s":"\\ü\\\\👩‍👩‍👧\"}"#),
        ]
        let parsed = try #require(RegistryCacheFormat.parse(RegistryCacheFormat.render(entries)))
        #expect(parsed.dropped == 0)
        #expect(parsed.entries == entries)
    }

    @Test("another header is not this format: nothing is read")
    func otherHeader() {
        #expect(RegistryCacheFormat.parse(Data(#"{"v":2,"entries":{}}"#.utf8)) == nil)
        #expect(RegistryCacheFormat.parse(Data()) == nil)
        #expect(RegistryCacheFormat.parse(Data("den-module-registry 2\n".utf8)) == nil)
    }

    @Test("a damaged line is dropped and counted; the good lines are kept",
          arguments: ["just one field", "/p\t1\t2\t3\t4\t5\t2\tt\t\t{}\textra", "/p\tx\t2\t3\t4\t5\t2\tt\t\t{}",
                      "\t1\t2\t3\t4\t5\t2\tt\t\t{}", "/p\t1\t2\t3\t4\t5\tnine\tt\t\t{}", "/p\t1\t2\t3\t4\t99999999999999999999999\t2\tt\t\t{}",
                      "/p\t1\t2\t3\t4\t5\t2\tt\t{}", "/p\t1\t2\t3\t4\t5\t2\tt\t\t{}\t", "\t\t\t\t\t\t\t\t\t"])
    func damagedLine(line: String) throws {
        var text = String(decoding: RegistryCacheFormat.render(["/m/lib.so": entry(7)]), as: UTF8.self)
        text += line + "\n"
        let parsed = try #require(RegistryCacheFormat.parse(Data(text.utf8)))
        #expect(parsed.dropped == 1)
        #expect(parsed.entries == ["/m/lib.so": entry(7)])
    }

    @Test("numbers are plain decimal digits: a time before 1970 survives, a sign on an unsigned field or a bare '-' does not")
    func numbers() throws {
        var before1970 = entry(8)
        before1970.key.modifiedSeconds = -86_400
        let parsed = try #require(RegistryCacheFormat.parse(RegistryCacheFormat.render(["/old/lib.so": before1970])))
        #expect(parsed.entries["/old/lib.so"] == before1970)
        for line in ["/p\t-1\t2\t3\t4\t5\t2\tt\t\t{}", "/p\t1\t2\t3\t-\t5\t2\tt\t\t{}", "/p\t1\t2\t+3\t4\t5\t2\tt\t\t{}",
                     "/p\t1\t2\t3\t4\t5\t4294967296\tt\t\t{}"] {
            let damaged = try #require(RegistryCacheFormat.parse(Data((RegistryCacheFormat.header + "\n" + line + "\n").utf8)))
            #expect(damaged.dropped == 1, "\(line)")
        }
    }

    @Test("bytes that are not UTF-8 in a text field read as no value, not as garbage")
    func invalidUTF8() throws {
        var data = Data((RegistryCacheFormat.header + "\n/p\t1\t2\t3\t4\t5\t2\t").utf8)
        data += Data([0xFF, 0xFE])
        data += Data("\t\t{}\n".utf8)
        let parsed = try #require(RegistryCacheFormat.parse(data))
        #expect(parsed.entries["/p"]?.toolchain == nil)
        #expect(parsed.entries["/p"]?.manifestJSON == "{}")
    }
}
