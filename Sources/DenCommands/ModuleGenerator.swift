import DenHost
import DenManifestCodegen
import DenRouting
import Foundation
import Mustache

/// Writes a new module package from ModuleTemplates: checks the name and routes first, refuses to
/// write over anything, and renders every file with Mustache (no code is built by concatenation).
struct ModuleGenerator {
    var name: String
    var routes: [String]
    /// The Den package the module depends on for DenKit (a path).
    var den: DenDependency

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// `Weather`, `TrailMap`: an UpperCamelCase Swift name, at most 48 characters.
    static func check(name: String) throws(Problem) {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first), bytes.count <= 48,
              bytes.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                  || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw Problem(description: "'\(name)' is not a module name: use 1-48 letters and digits starting with a capital letter, like Weather or TrailMap (it names the Swift types, the package and lib<Name>Module.so)")
        }
        if ["Den", "DenKit", "DenHost"].contains(name) {
            throw Problem(description: "'\(name)' is taken by Den itself; choose another name")
        }
    }

    /// The module id made from the name: `TrailMap` → `trail-map`.
    static func id(for name: String) -> String {
        var id = ""
        for (index, character) in name.enumerated() {
            if character.isUppercase, index > 0, !(name[name.index(name.startIndex, offsetBy: index - 1)].isUppercase) { id += "-" }
            id += character.lowercased()
        }
        return id
    }

    var id: String { Self.id(for: name) }

    /// The routes to generate: those given, else the module id; each checked by den's router.
    func checkedRoutes() throws(Problem) -> [String] {
        let patterns = routes.isEmpty ? [id] : routes
        var seen = Set<String>()
        for pattern in patterns {
            do {
                _ = try RoutePattern(pattern)
            } catch {
                throw Problem(description: "--route '\(pattern)': \(error)")
            }
            // The pattern goes into Swift and JSON string literals as it is.
            guard !pattern.contains("\"") && !pattern.contains("\\") else {
                throw Problem(description: "--route '\(pattern)' contains a quote or a backslash; route patterns here take neither")
            }
            guard seen.insert(pattern).inserted else { throw Problem(description: "--route '\(pattern)' is given twice") }
        }
        return patterns
    }

    /// What the templates see.
    func context() throws(Problem) -> [String: Any] {
        let patterns = try checkedRoutes()
        let first = patterns[0]
        var context: [String: Any] = [
            "name": name,
            "id": id,
            "moduleVar": name.prefix(1).lowercased() + name.dropFirst() + "Module",
            "summary": "The \(name) module",
            "denVersion": VersionText.version,
            "denPackage": den.packageReference,
            "routes": try patterns.enumerated().map { (item) throws(Problem) -> [String: Any] in
                ["pattern": item.element, "last": item.offset == patterns.count - 1, "builder": try Self.builder(for: item.element)]
            },
            // A route string the first pattern matches, for the README's `den render` line.
            "firstRouteSample": Self.sample(for: first),
        ]
        // Only one of the two is set: the template writes the dependency the set one names.
        if let url = den.url { context["denURL"] = url }
        if let path = den.path { context["denPath"] = path }
        return context
    }

    /// `buildTrails(_ context: BuildContext, `name`: String) throws -> any ModuleInstance`: the
    /// requirement DenManifestPlugin will generate for the route, so the builder is written to match.
    static func builder(for pattern: String) throws(Problem) -> String {
        do {
            return ModuleSwiftSource.builderRequirement(CheckedManifest.Route(pattern: try RoutePattern(pattern), requiresLogin: false))
        } catch {
            throw Problem(description: "--route '\(pattern)': \(error)")
        }
    }

    /// `weather/<string:city>` → `weather/example`; `jogs/<int:id>` → `jogs/1`.
    static func sample(for pattern: String) -> String {
        pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.hasPrefix("<"), segment.hasSuffix(">") else { return String(segment) }
            let type = segment.dropFirst().split(separator: ":").first.map(String.init) ?? "string"
            switch type {
            case "int": return "1"
            case "double": return "1.5"
            case "uuid": return "00000000-0000-0000-0000-000000000001"
            default: return "example"
            }
        }.joined(separator: "/")
    }

    /// Renders every file into `folder`, which must not exist or be empty. Returns the paths written.
    func write(into folder: URL) throws -> [String] {
        let context = try context()
        let manager = FileManager.default
        if let existing = try? manager.contentsOfDirectory(atPath: folder.path), !existing.isEmpty {
            throw Problem(description: "\(folder.path) already exists and is not empty; choose another --path, or move it away (nothing was written)")
        }
        var rendered: [(path: String, text: String)] = []
        for file in ModuleTemplates.files {
            let template = try MustacheTemplate(string: String(decoding: file.template, as: UTF8.self))
            let path = try MustacheTemplate(string: file.path).render(context)
            rendered.append((path, template.render(context)))
        }
        for file in rendered {
            let target = folder.appendingPathComponent(file.path)
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.text.utf8).write(to: target, options: .withoutOverwriting)
        }
        return rendered.map(\.path)
    }
}

/// Where a generated module gets DenKit from: Den's repository by version, as any third party
/// depends on it, or a local Den checkout by path, for working on Den itself.
struct DenDependency: Equatable {
    /// A git URL (or a local repository's path) with a tag `den --version` names.
    var url: String?
    /// The folder of Den's Package.swift.
    var path: String?

    static func byVersion(_ url: String) -> DenDependency { DenDependency(url: url, path: nil) }

    /// What `.product(package:)` names: SwiftPM knows a URL dependency by its identity, the URL's
    /// last component without `.git`, in lower case (`…/den.git` → `den`); a path one by its `name:`.
    var packageReference: String {
        guard let url else { return "Den" }
        var last = url.split(separator: "/").last.map(String.init) ?? url
        if last.hasSuffix(".git") { last.removeLast(4) }
        return last.lowercased()
    }
    static func byPath(_ folder: URL) -> DenDependency { DenDependency(url: nil, path: folder.path) }
}
