import DenKit
import Foundation
import Testing

/// The manifest's `permissions` (ABI revision 5, docs/PERMISSIONS.md): what it may say, and what
/// each pattern admits.
@Suite("Module permissions: the manifest key and its patterns")
struct ModulePermissionsSpec {
    @Test("the manifest key reads and writes through both JSON forms; a manifest without it asks for nothing")
    func manifestKey() throws {
        let text = #"{"v": 1, "id": "w", "version": "1.0.0", "routes": [], "permissions": {"http": ["api.example.org"], "exports": ["main.convert"], "auth": true, "plugins": true}}"#
        let manifest = try WireFormat.decode(ModuleManifest.self, from: Data(text.utf8))
        #expect(manifest.permissions == ModulePermissions(http: ["api.example.org"], exports: ["main.convert"], auth: true, plugins: true))
        let viaCodable = try JSONDecoder().decode(ModuleManifest.self, from: Data(text.utf8))
        #expect(viaCodable.permissions == manifest.permissions)
        let written = try WireFormat.decode(ModuleManifest.self, from: try WireFormat.encode(manifest))
        #expect(written.permissions == manifest.permissions)
        let bare = try WireFormat.decode(ModuleManifest.self, from: Data(#"{"v": 1, "id": "w", "version": "1.0.0", "routes": []}"#.utf8))
        #expect(bare.permissions == .nothing && bare.permissions.isEmpty)
        #expect(!String(decoding: try WireFormat.encode(bare), as: UTF8.self).contains("permissions"))
    }

    @Test("a permission this den does not know is a problem, never ignored")
    func unknownPermission() throws {
        let manifest = try WireFormat.decode(ModuleManifest.self, from: Data(#"{"v": 1, "id": "w", "version": "1.0.0", "routes": [], "permissions": {"camera": true}}"#.utf8))
        #expect(manifest.permissions.problem == "permission 'camera' is not one this den knows (http, exports, auth, plugins); update den, or drop it")
    }

    @Test("declared hosts: names, wildcards, addresses; never URLs, ports, upper case, trailing dots or IDN", arguments: [
        ("api.example.org", nil), ("*.example.org", nil), ("*", nil), ("127.0.0.1", nil), ("[::1]", nil), ("xn--bcher-kva.example", nil),
        ("https://api.example.org", "give a host name, not a URL (api.example.org)"),
        ("api.example.org/rates", "give a host name, not a URL (api.example.org)"),
        ("api.example.org:443", "leave out the port: a permission names a host, on any port"),
        ("API.example.org", "write it in lower case"),
        ("api.example.org.", "leave out the trailing dot"),
        ("bücher.example", "write an international host name in its ASCII (xn--) form, the form den connects to"),
        ("*.org", "a wildcard needs a domain of at least two labels under it (*.example.org)"),
        ("a.*.org", "'*' may only be the whole first label (*.example.org)"),
        ("a..org", "a label is empty or longer than 63 characters"),
        ("-a.org", "a label may not start or end with '-'"),
        ("[::1", "an IPv6 address is written in brackets: [::1]"),
        ("*.0.0.1", "a wildcard stands for host names under a domain, not for addresses: name each address"),
    ] as [(String, String?)])
    func hostPatterns(pattern: String, problem: String?) {
        #expect(HostPattern.problem(pattern) == problem)
    }

    @Test("a host is compared as den connects to it: case and one trailing dot do not matter, nothing else is guessed", arguments: [
        ("api.example.org", "API.Example.ORG.", true),
        ("api.example.org", "api.example.org.evil.net", false),
        ("api.example.org", "evilapi.example.org", false),
        ("*.example.org", "a.b.example.org", true),
        ("*.example.org", "example.org", false),
        ("*.example.org", "notexample.org", false),
        ("127.0.0.1", "127.1", false),
        ("127.0.0.1", "2130706433", false),
        ("localhost", "127.0.0.1", false),
        // Case and a trailing dot never turn an undeclared host into a declared one.
        ("127.0.0.1", "LOCALHOST.", false),
        ("127.0.0.1", "localhost.", false),
        ("api.example.org", "API.EXAMPLE.ORG.EVIL.NET.", false),
        ("*.example.org", "EXAMPLE.ORG.", false),
        ("127.0.0.1", "127.0.0.1..", false), // one dot is dropped, not any number
        ("[::1]", "::1", true),
        ("*", "anything.example", true),
    ])
    func hostMatching(pattern: String, host: String, admitted: Bool) throws {
        let normalised = try #require(HostPattern.normalise(host))
        #expect(ModulePermissions(http: [pattern]).allowsHTTP(host: normalised) == admitted)
    }

    @Test("hosts no pattern can name: not ASCII, percent-encoded, empty")
    func unnameableHosts() {
        #expect(HostPattern.normalise("lоcalhost") == nil) // a Cyrillic о
        #expect(HostPattern.normalise("api%2eexample.org") == nil)
        #expect(HostPattern.normalise("") == nil)
    }

    @Test("export patterns admit exactly their module's exports", arguments: [
        ("main.*", "main.convert", true), ("main.*", "mainx.f", false), ("main.*", "main", false), ("main.*", "xmain.f", false),
        ("main.convert", "main.convert", true), ("main.convert", "main.convertx", false),
        ("*.on_login", "jogs.on_login", true), ("*.on_login", "jogs.on_logout", false), ("*.on_login", "a.b.on_login", false),
    ])
    func exportMatching(pattern: String, name: String, admitted: Bool) {
        #expect(ExportPattern.problem(pattern) == nil)
        #expect(ModulePermissions(exports: [pattern]).allowsExport(name) == admitted)
    }

    @Test("malformed export patterns are refused", arguments: ["main", "*.*", "Main.convert", "main.Convert", "main.*.x", ".convert"])
    func malformedExportPatterns(pattern: String) {
        #expect(ExportPattern.problem(pattern) != nil, "\(pattern)")
    }

    @Test("what one set asks for beyond another: what an upgrade would need granted")
    func beyond() {
        let granted = ModulePermissions(http: ["*.example.org"], exports: ["main.*"], auth: false, plugins: true)
        #expect(ModulePermissions(http: ["api.example.org"], exports: ["main.convert"], plugins: true).beyond(granted).isEmpty)
        let asked = ModulePermissions(http: ["api.example.org", "other.net", "*"], exports: ["main.*", "mainx.f"], auth: true)
        #expect(asked.beyond(granted) == ModulePermissions(http: ["other.net", "*"], exports: ["mainx.f"], auth: true))
        #expect(ModulePermissions(http: ["*.example.org"]).beyond(ModulePermissions(http: ["api.example.org"])).http == ["*.example.org"])
        #expect(ModulePermissions(exports: ["*.on_login"]).beyond(ModulePermissions(exports: ["jogs.on_login"])).exports == ["*.on_login"])
    }

    @Test("the lines an install prompt shows")
    func lines() {
        let permissions = ModulePermissions(http: ["api.example.org", "*.cdn.example"], exports: ["main.*", "*.on_login"], auth: true, plugins: true)
        #expect(permissions.lines == [
            "http: fetch from api.example.org, any host under cdn.example (*.cdn.example)",
            "exports: call any export of main (main.*), on_login of any module (*.on_login)",
            "auth: log users in and out, register accounts, change and reset passwords",
            "plugins: list the installed modules",
        ])
        #expect(ModulePermissions.nothing.brief == "-")
    }
}
