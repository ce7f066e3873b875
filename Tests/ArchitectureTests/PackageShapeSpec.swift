import DenTestSupport
import Foundation
import Testing

/// The README's target table is the package's map: every target is on it, and each target
/// depends on and imports only the modules its row names. Package.swift (read through
/// `swift package dump-package`) and the sources' `import` lines are held to it, so an arrow that
/// must never exist (a plugin importing the host, the host importing a front-end) fails here.
@Suite("The package's shape matches the README's target table")
struct PackageShapeSpec {
    let package: PackageDump
    let table: TargetTable

    init() throws {
        package = try PackageDump.load(root: Self.root)
        table = try TargetTable(readme: String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8))
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the table lists every target, and names no target that is gone")
    func everyTargetListed() {
        let names = Set(package.targets.map(\.name))
        for target in package.targets {
            #expect(!table.rows(for: target.name, targets: names).isEmpty, "README's target table does not list \(target.name)")
        }
        for row in table.rows {
            for owner in row.owners where !owner.contains("<") {
                #expect(names.contains(owner), "README's target table lists \(owner), which Package.swift does not have")
            }
        }
    }

    @Test("each target depends in Package.swift only on what its row names")
    func dependenciesListed() {
        let names = Set(package.targets.map(\.name))
        for target in package.targets {
            let allowed = table.allowed(for: target.name, targets: names)
            for dependency in target.dependencies where !allowed.contains(dependency) {
                Issue.record("\(target.name) depends on \(dependency) in Package.swift, which its row of README's target table does not name")
            }
        }
    }

    @Test("each target imports only what its row names, or the toolchain's own modules")
    func importsListed() throws {
        let names = Set(package.targets.map(\.name))
        for target in package.targets {
            let allowed = table.allowed(for: target.name, targets: names).union([target.name]).union(Self.toolchainModules)
            for (file, module) in try target.imports(root: Self.root) where !allowed.contains(module) {
                Issue.record("\(file) imports \(module), which \(target.name)'s row of README's target table does not name")
            }
        }
    }

    @Test("the check catches what it is for: a plugin that imports the host")
    func catchesAForbiddenImport() {
        let names = Set(package.targets.map(\.name))
        #expect(!table.allowed(for: "AboutModule", targets: names).contains("DenHost"))
        #expect(!table.allowed(for: "DenHost", targets: names).contains("DenWeb"))
        #expect(table.allowed(for: "DenHost", targets: names).contains("DenRouting"))
    }

    static let toolchainModules: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc", "Musl", "Darwin", "Dispatch",
        "Synchronization", "_Concurrency", "Testing", "XCTest", "PackagePlugin", "PackageDescription",
    ]
}

/// Package.swift as `swift package dump-package` prints it: the targets, their paths and their
/// dependencies (targets by name, products by product name).
struct PackageDump {
    struct Target {
        var name: String
        var type: String
        var path: String
        var exclude: [String]
        var dependencies: [String]

        /// Every module `import`ed by the target's Swift files, with the file's path.
        func imports(root: URL) throws -> [(String, String)] {
            let folder = root.appendingPathComponent(path)
            guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
            var found: [(String, String)] = []
            let excluded = exclude.map { folder.appendingPathComponent($0).standardizedFileURL.path + "/" }
            for case let file as URL in files where file.pathExtension == "swift" {
                let path = file.standardizedFileURL.path
                if excluded.contains(where: { path.hasPrefix($0) }) { continue }
                for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                    if let module = Self.importedModule(line) { found.append((String(path.dropFirst(root.path.count + 1)), module)) }
                }
            }
            return found
        }

        /// `import X`, `@testable import X`, `@preconcurrency import X`, `import struct X.Y` → X.
        static func importedModule(_ line: Substring) -> String? {
            var words = line.split(separator: " ").map(String.init)
            while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { return nil }
            var name = words[1]
            if ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"].contains(name), words.count >= 3 { name = words[2] }
            return name.split(separator: ".").first.map(String.init)
        }
    }

    var targets: [Target]

    static func load(root: URL) throws -> PackageDump {
        // A scratch folder of its own: `swift test` holds the package's .build while it runs.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("den-shape-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // posix_spawn (ProcessRunner), not Foundation's Process, which now and then crashes the
        // test process on Linux.
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                           ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"],
                                           timeout: 600)
        guard result.status == 0,
              let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
              let targets = json["targets"] as? [[String: Any]] else {
            throw DumpFailure(status: result.status)
        }
        return PackageDump(targets: targets.map { target in
            let name = target["name"] as? String ?? "?"
            let type = target["type"] as? String ?? "regular"
            let folder = type == "test" ? "Tests" : type == "plugin" ? "Plugins" : "Sources"
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency -> String? in
                for key in ["byName", "target", "product"] {
                    if let value = dependency[key] as? [Any], let name = value.first as? String { return name }
                }
                return nil
            }
            return Target(name: name, type: type, path: target["path"] as? String ?? "\(folder)/\(name)",
                          exclude: target["exclude"] as? [String] ?? [], dependencies: dependencies)
        })
    }

    struct DumpFailure: Error, CustomStringConvertible {
        let status: Int32
        var description: String { "swift package dump-package failed (status \(status)): is `swift` on PATH?" }
    }
}

/// README.md's "| target | job | depends on |" table: per row, the targets it is about (first
/// column) and the modules they may use (last column), each in backticks. `<Name>` and `<Target>`
/// in a name stand for any name; "what `<Target>` may use" brings that target's own list along.
struct TargetTable {
    struct Row {
        var owners: [String]
        var uses: [String]
        var inheritsTarget: Bool
    }

    var rows: [Row]

    init(readme: String) throws {
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| target | job | depends on |") }) else {
            throw TableMissing()
        }
        rows = lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            let last = cells.count >= 4 ? cells[cells.count - 2] : ""
            return Row(owners: Self.backticked(cells.count > 1 ? cells[1] : ""), uses: Self.backticked(last),
                       inheritsTarget: last.contains("what `<Target>` may use"))
        }
    }

    struct TableMissing: Error {}

    static func backticked(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { $0.offset % 2 == 1 ? String($0.element) : nil }
    }

    /// The rows about `target`, with what each pattern stood for.
    func rows(for target: String, targets: Set<String>) -> [(row: Row, binding: String?)] {
        rows.compactMap { row in
            for owner in row.owners {
                if owner == target { return (row, nil) }
                if let binding = Self.match(owner, target), owner.contains("<Target>") ? targets.contains(binding) : true {
                    return (row, binding)
                }
            }
            return nil
        }
    }

    /// Everything `target` may depend on and import.
    func allowed(for target: String, targets: Set<String>, depth: Int = 0) -> Set<String> {
        var allowed = Set<String>()
        for (row, binding) in rows(for: target, targets: targets) {
            for name in row.uses + row.owners {
                allowed.insert(binding.map { name.replacing("<Name>", with: $0).replacing("<Target>", with: $0) } ?? name)
            }
            if row.inheritsTarget, let binding, depth < 2 {
                allowed.formUnion(self.allowed(for: binding, targets: targets, depth: depth + 1))
            }
        }
        return allowed
    }

    /// What `<Name>` or `<Target>` in `pattern` stands for in `name`, or nil when it does not match.
    static func match(_ pattern: String, _ name: String) -> String? {
        for placeholder in ["<Name>", "<Target>"] {
            guard let range = pattern.range(of: placeholder) else { continue }
            let prefix = pattern[..<range.lowerBound], suffix = pattern[range.upperBound...]
            guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else { return nil }
            return String(name.dropFirst(prefix.count).dropLast(suffix.count))
        }
        return nil
    }
}
