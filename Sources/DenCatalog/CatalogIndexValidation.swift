import DenModuleFiles

/// What den checks of an index before acting on any of it. An index is input from a server
/// nobody vetted (its signature says who wrote it, not that they wrote it well), so one bad
/// entry refuses the whole index: a half-trusted index would let a tampered entry ride along.
package struct CatalogLimits: Sendable, Equatable {
    /// The largest module file an index may list; a download stops at the listed size.
    package var maximumFileBytes: UInt64

    /// 256 MiB: a debug build of a big Swift module is tens of MB.
    package static let standard = CatalogLimits(maximumFileBytes: 256 * 1024 * 1024)

    package init(maximumFileBytes: UInt64) {
        self.maximumFileBytes = maximumFileBytes
    }
}

/// An index den refuses, with every problem found, each naming the module and version.
package struct CatalogIndexInvalid: Error, Equatable, Sendable, CustomStringConvertible {
    package let problems: [String]

    package var description: String {
        "the catalog's index is refused: " + problems.joined(separator: "; ")
    }
}

extension CatalogIndex {
    /// Every problem, in a stable order (modules by id, then versions as listed); empty when den may use it.
    package func problems(limits: CatalogLimits = .standard) -> [String] {
        var problems: [String] = []
        if format != Self.currentFormat {
            problems.append("format \(format) is not one this den reads (it reads \(Self.currentFormat)); update den")
        }
        if !ISO8601Text.isValid(generated) {
            problems.append("generated '\(generated)' is not an ISO 8601 time such as 2026-05-01T12:00:00Z")
        }
        var files: [String: String] = [:]
        for (id, entries) in modules.sorted(by: { $0.key < $1.key }) {
            guard ModuleIdentity.isValidID(id) else {
                problems.append("module id '\(id)' is not valid: an id is \(ModuleIdentity.idRule)")
                continue
            }
            if id == ModuleRelease.denID {
                problems.append("module id 'den' names den itself, which a catalog cannot hold")
                continue
            }
            var seen: [SemanticVersion: String] = [:]
            for entry in entries {
                let name = "\(id) \(entry.version)"
                let entryProblems = entry.problems(id: id, limits: limits)
                problems += entryProblems.map { "\(name): \($0)" }
                if let version = SemanticVersion(entry.version) {
                    if let earlier = seen[version] {
                        problems.append(earlier == entry.version
                            ? "\(name) is listed twice"
                            : "\(name) is listed twice: \(earlier) is the same version (build metadata and leading zeros do not count)")
                    } else {
                        seen[version] = entry.version
                    }
                }
                if let other = files[entry.file] {
                    problems.append("\(name): file '\(entry.file)' is also \(other)'s")
                } else {
                    files[entry.file] = name
                }
            }
        }
        return problems
    }

    /// Throws every problem when there is one.
    package func validate(limits: CatalogLimits = .standard) throws(CatalogIndexInvalid) {
        let problems = problems(limits: limits)
        if !problems.isEmpty { throw CatalogIndexInvalid(problems: problems) }
    }

    /// The releases the resolver may choose from, once the index is valid.
    package func snapshot(limits: CatalogLimits = .standard) throws(CatalogIndexInvalid) -> CatalogSnapshot {
        try validate(limits: limits)
        var releases: [ModuleRelease] = []
        for (id, entries) in modules {
            for entry in entries {
                // validate() has parsed every version and range, so these cannot throw.
                if let release = try? ModuleRelease(id: id, version: entry.version, requires: entry.manifest.requires) {
                    releases.append(release)
                }
            }
        }
        return CatalogSnapshot(releases)
    }
}

extension CatalogEntry {
    /// This entry's problems, without its name (the caller prefixes it).
    func problems(id: String, limits: CatalogLimits) -> [String] {
        var problems: [String] = []
        do {
            _ = try SemanticVersion(parsing: version)
        } catch {
            problems.append(error.description)
        }
        if let problem = Self.pathProblem(file) { problems.append("file '\(file)' \(problem)") }
        if !Self.isHex(sha256, count: 64, digits: "0123456789abcdef") {
            problems.append("sha256 '\(sha256)' is not 64 lowercase hex digits")
        }
        if size == 0 {
            problems.append("size 0: a module file is never empty")
        } else if size > limits.maximumFileBytes {
            problems.append("size \(size) bytes is above the limit of \(limits.maximumFileBytes)")
        }
        if !Self.isHex(publisher, count: 16, digits: "0123456789ABCDEF") {
            problems.append("publisher '\(publisher)' is not a minisign key id (16 uppercase hex digits)")
        }
        if manifest.id != id { problems.append("its manifest's id is '\(manifest.id)'") }
        if manifest.version != version { problems.append("its manifest's version is '\(manifest.version)'") }
        for (dependency, range) in manifest.requires.sorted(by: { $0.key < $1.key }) {
            if !ModuleIdentity.isValidID(dependency) {
                problems.append("it requires '\(dependency)', which is not a module id: an id is \(ModuleIdentity.idRule)")
            } else if dependency == id {
                problems.append("it requires itself")
            }
            do { _ = try VersionRequirement(parsing: range) } catch {
                problems.append("its requirement on \(dependency): \(error.description)")
            }
        }
        // A permission this den does not know is not the index's fault: a newer den's module may
        // ask for it (and require that den). Install refuses that module; the index stays usable.
        var known = manifest.permissions
        known.unknownNames = []
        if let problem = known.problem { problems.append(problem) }
        return problems
    }

    /// Why `path` cannot name a file inside the catalog, or nil when it can. Checked as text, so
    /// the check holds whatever the catalog sits on (a folder, a URL path, a USB stick's FAT).
    static func pathProblem(_ path: String) -> String? {
        if path.isEmpty { return "is empty" }
        if path.hasPrefix("/") { return "is absolute; a file is named relative to the catalog" }
        if path.contains("\\") { return "contains a backslash; paths use '/'" }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "contains a control character" }
        if path.contains(":") { return "contains ':'; a file is a path inside the catalog, not a URL" }
        for component in path.split(separator: "/", omittingEmptySubsequences: false) {
            if component == ".." { return "contains '..', which would leave the catalog" }
            if component == "." || component.isEmpty { return "is not in plain form (an empty or '.' part)" }
        }
        return nil
    }

    static func isHex(_ text: String, count: Int, digits: String) -> Bool {
        text.utf8.count == count && text.allSatisfy { digits.contains($0) }
    }
}

/// `2026-05-01T12:00:00Z`, with optional fractions of a second and an offset instead of Z.
enum ISO8601Text {
    static func isValid(_ text: String) -> Bool {
        guard let match = text.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))/) else {
            return false
        }
        func number(_ text: Substring) -> Int { Int(text) ?? -1 }
        let (month, day, hour, minute, second) = (number(match.2), number(match.3), number(match.4), number(match.5), number(match.6))
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
              (0...60).contains(second) else { return false }
        if let offsetHours = match.9, let offsetMinutes = match.10 {
            return (0...23).contains(number(offsetHours)) && (0...59).contains(number(offsetMinutes))
        }
        return true
    }
}
