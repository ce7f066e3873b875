import ArgumentParser
import DenCommandLine
import DenHost
import DenKit
import DenPostgresEngine
import DenSupport
import Foundation
import DenPermissions

/// `den modules grant <id>`: agrees to what a module's manifest asks for (releasing a held
/// upgrade), and lets an operator add http hosts beyond it.
struct ModulesGrantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grant",
        abstract: "Grant a module what its manifest asks for (releases an upgrade held for permissions).",
        discussion: """
        Reads the manifest of the module's file in the modules folders a den loads, shows what it asks for, and asks \
        (--yes agrees without asking). The grant is kept in the data folder (on PostgreSQL, in the database, for every \
        host); a running den serve follows it within two seconds and loads a held upgrade. --http adds a host the \
        module may fetch from beyond its manifest, e.g. the mirror a setting points it to. docs/PERMISSIONS.md.
        """)

    @Argument(help: ArgumentHelp("The module id (as `den plugins` lists it).", valueName: "id"))
    var id: String

    @Option(name: .customLong("http"), help: ArgumentHelp("Also allow http.get of this host (repeatable): api.example.org, *.example.org.", valueName: "host"))
    var hosts: [String] = []

    @Flag(help: "Agree without asking (for scripts).")
    var yes = false

    @OptionGroup var host: HostOptions

    func validate() throws {
        for host in hosts {
            guard let normalised = HostPattern.normalise(host), HostPattern.problem(normalised) == nil || host == "*" else {
                throw ValidationError("--http \(host): \(HostPattern.problem(host.lowercased()) ?? "not a host name"); give a host such as api.example.org")
            }
        }
    }

    func run() throws {
        let found = try GrantTools.manifest(of: id, host: host)
        let book = try GrantTools.book(host: host)
        let existing = try GrantTools.read { () throws(ServiceFailure) in try book.grant(of: id) }
        let added = hosts.compactMap(HostPattern.normalise)
        let asked = found.manifest.permissions
        let beyond = asked.beyond(existing?.permissions ?? .nothing)
        if !beyond.isEmpty || !added.isEmpty {
            var lines = beyond.lines
            if !added.isEmpty { lines.append("http (added by you): fetch from \(added.joined(separator: ", "))") }
            try GrantTools.agree("\(id) \(found.manifest.version) asks to:", lines, yes: yes, declined: "Nothing was granted.")
        }
        let grant = ModuleGrant(permissions: asked, addedHosts: (existing?.addedHosts ?? []) + added.filter { !(existing?.addedHosts ?? []).contains($0) },
                                version: found.manifest.version, how: "grant", at: UTCTime.iso8601(Date()))
        try GrantTools.write { () throws(ServiceFailure) in try book.record(grant, of: id) }
        print("Granted \(id) \(found.manifest.version): \(GrantTools.describe(grant)). A running den serve on this data folder follows it within two seconds.")
    }
}

/// `den modules permissions [<id>] [--revoke <permission>]`: what each module was granted.
struct ModulesPermissionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "permissions",
        abstract: "List what each module was granted, or revoke a permission.",
        discussion: """
        Without an id, one line per module with a grant in this data folder (or database). --revoke http|exports|auth|plugins \
        takes that permission back (http also drops hosts added with den modules grant --http): a running den refuses the \
        module's calls that need it within two seconds, and holds the module at its next load until it is granted again. \
        docs/PERMISSIONS.md.
        """)

    @Argument(help: ArgumentHelp("A module id.", valueName: "id"))
    var id: String?

    @Option(help: ArgumentHelp("Take back this permission (repeatable): http, exports, auth or plugins.", valueName: "permission"))
    var revoke: [String] = []

    @OptionGroup var host: HostOptions

    func validate() throws {
        if !revoke.isEmpty && id == nil { throw ValidationError("name the module whose permission to revoke: den modules permissions <id> --revoke http") }
        for name in revoke where !ModulePermissions.names.contains(name) {
            throw ValidationError("--revoke \(name): not a permission; name one of \(ModulePermissions.names.joined(separator: ", "))")
        }
    }

    func run() throws {
        let book = try GrantTools.book(host: host)
        let grants = try GrantTools.read { () throws(ServiceFailure) in try book.readAll() }
        guard let id else {
            guard !grants.isEmpty else {
                print("No module has a grant in this data folder yet: den records one at a module's install (den modules install) or first load.")
                return
            }
            for (module, grant) in grants.sorted(by: { $0.key < $1.key }) {
                print("\(ModuleText.singleLine(module)) \(ModuleText.singleLine(grant.version)) (\(grant.how) \(grant.at)): \(ModuleText.singleLine(GrantTools.describe(grant), limit: 600))")
            }
            return
        }
        guard var grant = grants[id] else {
            let known = grants.keys.sorted()
            throw ValidationError("module '\(id)' has no grant in this data folder\(known.isEmpty ? "" : " (modules with one: \(known.joined(separator: ", ")))")")
        }
        guard !revoke.isEmpty else {
            print("\(id) \(grant.version), granted at \(grant.how) \(grant.at):")
            let lines = grant.permissions.lines + (grant.addedHosts.isEmpty ? [] : ["http (added by an operator): fetch from \(grant.addedHosts.joined(separator: ", "))"])
            print(lines.isEmpty ? "  nothing beyond its own data" : lines.map { "  \($0)" }.joined(separator: "\n"))
            return
        }
        for name in revoke {
            grant.permissions = grant.permissions.removing(name)
            if name == "http" { grant.addedHosts = [] }
        }
        grant.how = "revoke"
        grant.at = UTCTime.iso8601(Date())
        let revised = grant
        try GrantTools.write { () throws(ServiceFailure) in try book.record(revised, of: id) }
        print("Revoked \(revoke.joined(separator: ", ")) from \(id): now \(GrantTools.describe(revised)). A running den serve refuses those calls within two seconds and holds the module at its next load until `den modules grant \(id)`.")
    }
}

/// What the grant commands and `den modules install` share.
enum GrantTools {
    /// The grants of the data folder (or the database) a den with these options serves from.
    static func book(host: HostOptions) throws -> PermissionBook {
        let engine = try host.makeStorageEngine()
        return PermissionBook(engine: engine, gate: PermissionGate(), recordsFirstLoad: false)
    }

    /// The manifest of the module file a den with these options would load for `id`.
    static func manifest(of id: String, host: HostOptions) throws -> (file: URL, manifest: ModuleManifest) {
        let discovery = host.settings.discovery
        var found: (URL, ModuleManifest)?
        var ids: [String] = []
        for candidate in discovery.candidates().found {
            guard let manifest = try? ModuleFileInspection.inspect(candidate.file).manifest else { continue }
            ids.append(manifest.id)
            if manifest.id == id { found = (candidate.file, manifest) } // a later folder wins, as it would load
        }
        guard let found else {
            let known = Set(ids).sorted()
            throw ValidationError("no module file with id '\(id)' and a manifest is in the modules folders\(known.isEmpty ? "" : " (found: \(known.joined(separator: ", ")))"); install it first with den modules install <file>")
        }
        return found
    }

    /// Shows `lines` under `title` and asks; throws (exit status 1) unless the user agrees.
    static func agree(_ title: String, _ lines: [String], yes: Bool, declined: String) throws {
        print(title)
        for line in lines { print("  - \(ModuleText.singleLine(line, limit: 400))") }
        if yes { return }
        guard isatty(STDIN_FILENO) == 1 else {
            FileHandle.standardError.write(Data("Error: den asks before it grants a module permissions; answer in a terminal, or pass --yes to agree. \(declined)\n".utf8))
            throw ExitCode(ExitStatus.failure)
        }
        print("Allow? [y/N] ", terminator: "")
        fflush(nil)
        let answer = (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else {
            print(declined)
            throw ExitCode(ExitStatus.failure)
        }
    }

    static func describe(_ grant: ModuleGrant) -> String {
        var parts = grant.permissions.isEmpty ? [] : [grant.permissions.brief]
        if !grant.addedHosts.isEmpty { parts.append("added http(\(grant.addedHosts.joined(separator: ",")))") }
        return parts.isEmpty ? "nothing beyond its own data" : parts.joined(separator: " ")
    }

    static func read<T>(_ body: () throws(ServiceFailure) -> T) throws -> T {
        do { return try body() } catch {
            FileHandle.standardError.write(Data("Error: cannot read the module grants: \(error.message)\n".utf8))
            throw ExitCode(ExitStatus.failure)
        }
    }

    static func write(_ body: () throws(ServiceFailure) -> Void) throws {
        do { try body() } catch {
            FileHandle.standardError.write(Data("Error: cannot write the module grant: \(error.message); nothing changed\n".utf8))
            throw ExitCode(ExitStatus.failure)
        }
    }
}
