import DenKit
@testable import DenModuleFiles
import Foundation
import Testing

@Suite("The registry cache's file: a line per module file, read without decoding anything")
struct RegistryCacheFormatTests {
    private func entry(_ inode: UInt64, abi: UInt32? = 2, toolchain: String? = "swift-6.3.1", manifest: String? = #"{"v":1,"id":"x"}"#,
                       eager: String? = nil) -> ManifestIndex.Entry {
        entry(inode, abi: abi, toolchain: toolchain, cached: manifest.map { .json($0) }, eager: eager)
    }

    private func entry(_ inode: UInt64, abi: UInt32? = 2, toolchain: String? = "swift-6.3.1", cached: ManifestIndex.CachedManifest?,
                       eager: String? = nil) -> ManifestIndex.Entry {
        ManifestIndex.Entry(key: .init(device: 65024, inode: inode, size: 2_930_000, modifiedSeconds: 1_795_403_840,
                                       modifiedNanoseconds: 37_533_098),
                            abiVersion: abi, toolchain: toolchain, manifest: cached, eagerBecause: eager)
    }

    /// Manifests the plain fields carry whole: no settings, no exports (an empty list is fine).
    private static let plainManifests: [ModuleManifest] = [
        ModuleManifest(id: "about", version: "1.0.0", summary: "About the app", routes: [.init("about")]),
        ModuleManifest(id: "jogs", version: "2.1.0-beta.1+build.7", summary: "", routes: [
            .init("jogs"), .init("jogs/<int:id>", requiresLogin: true), .init("jogs/new", requiresLogin: true),
        ], exports: []),
        ModuleManifest(id: "odd", version: "1.0.0", summary: "tab\there, line\nbreak, back\\slash, \u{1F}, é 日本 👩‍👩‍👧, +-",
                       routes: [.init("-"), .init("+"), .init("+-/<x>"), .init("a/<int:n>/b", requiresLogin: true)]),
        ModuleManifest(id: "none", version: "0.0.1", routes: []),
    ]

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

    @Test("a manifest without settings or exports is kept in plain fields and comes back equal",
          arguments: plainManifests)
    func plainFields(manifest: ModuleManifest) throws {
        #expect(RegistryCacheFormat.isPlain(manifest))
        let entries = ["/m/lib.so": entry(9, cached: .decoded(manifest))]
        let data = RegistryCacheFormat.render(entries)
        #expect(!String(decoding: data, as: UTF8.self).contains("\"v\""), "written as JSON")
        let parsed = try #require(RegistryCacheFormat.parse(data))
        #expect(parsed.dropped == 0)
        #expect(parsed.entries == entries)
        // And equal to what the manifest's own JSON decodes to (a file's den_manifest).
        let json = try JSONEncoder().encode(manifest)
        #expect(try ManifestDecoding.decode(Array(json)).get() == manifest)
    }

    @Test("a manifest with settings, exports or a route the routes field cannot hold is kept as JSON")
    func jsonWhenNotPlain() throws {
        let withSettings = ModuleManifest(id: "main", version: "1.0.0", routes: [.init("main")],
                                          settings: [SettingDefinition("base", kind: .string, default: "EUR", help: "Base")])
        let withExports = ModuleManifest(id: "calc", version: "1.0.0", routes: [], exports: [.init(name: "calc.add", signature: "(i64 a, i64 b) -> i64")])
        let newlineRoute = ModuleManifest(id: "nl", version: "1.0.0", routes: [.init("a\nb")])
        for manifest in [withSettings, withExports, newlineRoute] {
            #expect(!RegistryCacheFormat.isPlain(manifest))
            let parsed = try #require(RegistryCacheFormat.parse(RegistryCacheFormat.render(["/m/lib.so": entry(10, cached: .decoded(manifest))])))
            #expect(parsed.dropped == 0)
            guard case .json(let json)? = parsed.entries["/m/lib.so"]?.manifest else {
                Issue.record("\(manifest.id): not kept as JSON")
                continue
            }
            #expect(try JSONDecoder().decode(ModuleManifest.self, from: Data(json.utf8)) == manifest)
        }
    }

    @Test("a damaged plain manifest drops its line",
          arguments: ["\tabout\t\t\t\t-about", "\tabout\t1.0.0\t\tyes\t-about", "\tabout\t1.0.0\t\t\tabout",
                      "\tabout\t1.0.0\t\t\t-about\\n", "\tabout\t1.0.0\t\t\t\\n-about", #"{"v":1}\tabout\t1.0.0\t\t\t-about"#])
    func damagedPlainManifest(fields: String) throws {
        let line = "/p\t1\t2\t3\t4\t5\t2\tt\t\t" + fields
        let parsed = try #require(RegistryCacheFormat.parse(Data((RegistryCacheFormat.header + "\n" + line + "\n").utf8)))
        #expect(parsed.dropped == 1, "\(fields)")
    }

    @Test("a plain manifest whose routes are not UTF-8 drops its line, escaped or not")
    func routesNotUTF8() throws {
        for (before, after) in [("-ab", ""), ("-a", "\\n-b")] {
            var data = Data((RegistryCacheFormat.header + "\n/p\t1\t2\t3\t4\t5\t2\tt\t\t\tabout\t1.0.0\t\t\t" + before).utf8)
            data += Data([0xFF, 0xFE])
            data += Data((after + "\n").utf8)
            let parsed = try #require(RegistryCacheFormat.parse(data))
            #expect(parsed.dropped == 1, "\(before)…\(after)")
            #expect(parsed.entries["/p"] == nil)
        }
    }

    @Test("a line with den's own toolchain reads back as den's own; another toolchain reads back as written")
    func ownToolchain() throws {
        let own = entry(9, toolchain: ManifestIndex.ownToolchain)
        let other = entry(10, toolchain: ManifestIndex.ownToolchain + " (patched)")
        let parsed = try #require(RegistryCacheFormat.parse(RegistryCacheFormat.render(["/own/lib.so": own, "/other/lib.so": other])))
        #expect(parsed.entries["/own/lib.so"]?.toolchain == ManifestIndex.ownToolchain)
        #expect(parsed.entries["/other/lib.so"] == other)
    }

    @Test("another header is not this format: nothing is read")
    func otherHeader() {
        #expect(RegistryCacheFormat.parse(Data(#"{"v":2,"entries":{}}"#.utf8)) == nil)
        #expect(RegistryCacheFormat.parse(Data()) == nil)
        #expect(RegistryCacheFormat.parse(Data("den-module-registry 2\n".utf8)) == nil)
        #expect(RegistryCacheFormat.parse(Data("den-module-registry 3\n".utf8)) == nil)
    }

    @Test("a damaged line is dropped and counted; the good lines are kept",
          arguments: ["just one field", "/p\t1\t2\t3\t4\t5\t2\tt\t\t{}\t\t\t\t\t\textra", "/p\tx\t2\t3\t4\t5\t2\tt\t\t{}\t\t\t\t\t",
                      "\t1\t2\t3\t4\t5\t2\tt\t\t{}\t\t\t\t\t", "/p\t1\t2\t3\t4\t5\tnine\tt\t\t{}\t\t\t\t\t",
                      "/p\t1\t2\t3\t4\t99999999999999999999999\t2\tt\t\t{}\t\t\t\t\t",
                      "/p\t1\t2\t3\t4\t5\t2\tt\t{}\t\t\t\t\t", "/p\t1\t2\t3\t4\t5\t2\tt\t\t{}\t\t\t\t\t\t",
                      "/p\t1\t2\t3\t4\t5\t2\tt\t\t{}", "\t\t\t\t\t\t\t\t\t\t\t\t\t\t"])
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
            let whole = line + "\t\t\t\t\t"
            let damaged = try #require(RegistryCacheFormat.parse(Data((RegistryCacheFormat.header + "\n" + whole + "\n").utf8)))
            #expect(damaged.dropped == 1, "\(line)")
        }
    }

    @Test("bytes that are not UTF-8 in a text field read as no value, not as garbage")
    func invalidUTF8() throws {
        var data = Data((RegistryCacheFormat.header + "\n/p\t1\t2\t3\t4\t5\t2\t").utf8)
        data += Data([0xFF, 0xFE])
        data += Data("\t\t{}\t\t\t\t\t\n".utf8)
        let parsed = try #require(RegistryCacheFormat.parse(data))
        #expect(parsed.entries["/p"]?.toolchain == nil)
        #expect(parsed.entries["/p"]?.manifest == .json("{}"))
    }

    @Test("an edited file (lines out of order, a path twice, a path that is not UTF-8) is read by path; a repeated path keeps its last line")
    func editedFile() throws {
        let written = String(decoding: RegistryCacheFormat.render([
            "/m/b.so": entry(2), "/m/a.so": entry(1), "/m/c\\tab\there.so": entry(3), "/m/é.so": entry(4),
        ]), as: UTF8.self)
        var lines = written.split(separator: "\n").map(String.init)
        let header = lines.removeFirst()
        // Reversed order, and /m/a.so again at the end with another inode (the later line wins).
        let again = String(decoding: RegistryCacheFormat.render(["/m/a.so": entry(9)]), as: UTF8.self)
            .split(separator: "\n")[1]
        let edited: [String] = [header] + lines.reversed() + [String(again)]
        var data = Data((edited.joined(separator: "\n") + "\n").utf8)
        data.append(contentsOf: [0x2F, 0xFF, 0x09])
        data.append(contentsOf: Array("1\t2\t3\t4\t5\t2\tt\t\t{}\t\t\t\t\t\n".utf8))
        let read = try #require(RegistryCacheFormat.lines(data))
        #expect(read.damaged == 1, "the path that is not UTF-8")
        #expect(read.count == 4)
        #expect(read.entry(for: "/m/a.so").entry == entry(9))
        #expect(read.entry(for: "/m/b.so").entry == entry(2))
        #expect(read.entry(for: "/m/c\\tab\there.so").entry == entry(3))
        #expect(read.entry(for: "/m/é.so").entry == entry(4))
        for missing in ["/m/a.s", "/m/a.so ", "/m/", "", "/m/d.so", "/m/c\\tab\\there.so"] {
            #expect(read.entry(for: missing).entry == nil && !read.entry(for: missing).isDamaged, "\(missing)")
        }
        #expect(Set(read.paths) == ["/m/a.so", "/m/b.so", "/m/c\\tab\there.so", "/m/é.so"])
    }

    @Test("the file is written in the order lines are searched: by escaped path bytes, odd paths and decomposed names too")
    func writtenInSearchOrder() throws {
        let entries: [String: ManifestIndex.Entry] = [
            "/m/b.so": entry(1), "/m/a\tb.so": entry(2), "/m/a\\b.so": entry(3), "/m/e\u{301}.so": entry(4), "/m/ü.so": entry(5),
            "/m/Z.so": entry(6), "/m/a.so": entry(7),
        ]
        let read = try #require(RegistryCacheFormat.lines(RegistryCacheFormat.render(entries)))
        #expect(read.wasInOrder, "render writes what Lines searches without sorting again")
        for (path, entry) in entries { #expect(read.entry(for: path).entry == entry, "\(path)") }
    }
}
