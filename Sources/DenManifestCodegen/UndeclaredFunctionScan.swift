/// Finds the functions a module's Swift implements that module.json does not declare.
///
/// The generated protocols make a *declared* route or export without its function a compile
/// error, but Swift cannot say the reverse: a `static func buildSettings(_:)` written for a route
/// that module.json lacks compiles and is silently never registered, and Swift has no reflection
/// on static functions that a test could use to list them. So the build tool reads the target's
/// Swift sources (as text) and holds them to a naming rule (docs/WRITING_MODULES.md, "Names"):
/// - a `static func build<Upper>…(` is a route builder, and must be one module.json declares,
///   with the same argument labels (`buildJogs(_:id:)`);
/// - a `static func <name>(host: HostServices, …` is an export function, and must be one
///   module.json declares (`weeklyTotals(host:)`).
/// Each one that is not is a build error naming the function, its file and line.
package enum UndeclaredFunctionScan {
    package struct Finding: Equatable, CustomStringConvertible {
        package enum Kind: Equatable { case builder, export }
        package var file: String
        package var line: Int
        /// `buildJogs(_:identifier:)`, `weeklyTotal(host:)`.
        package var function: String
        package var kind: Kind
        /// What module.json declares of this kind, as the same kind of names.
        package var declared: [String]

        /// `path:line: error: …`, the form SwiftPM and editors show on that line.
        package var description: String {
            let what = kind == .builder ? "a route builder (static func build…)" : "an export function (first parameter host: HostServices)"
            let list = declared.isEmpty ? "none" : declared.joined(separator: ", ")
            let fix = kind == .builder
                ? "Add its route to Manifest/module.json, or rename it so it does not start with 'build' and an upper-case letter"
                : "Add the export to Manifest/module.json, or take the host another way"
            return "\(file):\(line): error: \(function) is \(what), but Manifest/module.json declares no such one "
                + "(it declares: \(list)), so den would never call it. \(fix)."
        }
    }

    /// The builder functions module.json declares, as `buildJogs(_:id:)`.
    package static func declaredBuilders(_ manifest: CheckedManifest) -> [String] {
        var seen: Set<String> = []
        return manifest.routes.map { route in
            route.builderName + "(_:" + route.parameters.map { $0.name + ":" }.joined() + ")"
        }.filter { seen.insert($0).inserted }
    }

    /// The export functions module.json declares, as `weeklyTotals(host:…)` names: only the base name counts
    /// (a declared export with other parameters is a compile error on the generated protocol).
    package static func declaredExports(_ manifest: CheckedManifest) -> [String] {
        manifest.exports.map(\.functionName)
    }

    /// Every undeclared builder or export function in `source` (the text of `file`).
    package static func findings(in source: String, file: String, manifest: CheckedManifest) -> [Finding] {
        let builders = declaredBuilders(manifest)
        let exports = declaredExports(manifest)
        var findings: [Finding] = []
        for function in staticFunctions(in: source) {
            let signature = function.name + "(" + function.labels.map { $0 + ":" }.joined() + ")"
            if isBuilderName(function.name) {
                if !builders.contains(signature) {
                    findings.append(Finding(file: file, line: function.line, function: signature, kind: .builder, declared: builders))
                }
            } else if function.labels.first == "host", function.firstType == "HostServices" {
                if !exports.contains(function.name) {
                    findings.append(Finding(file: file, line: function.line, function: signature, kind: .export,
                                            declared: exports.map { $0 + "(host:…)" }))
                }
            }
        }
        return findings
    }

    /// `build` then an upper-case letter: `buildJogs` is a builder, `build` and `buildings` are not.
    static func isBuilderName(_ name: String) -> Bool {
        guard name.hasPrefix("build"), let next = name.dropFirst(5).first else { return false }
        return next.isUppercase
    }

    struct StaticFunction {
        var name: String
        var line: Int
        /// The argument labels (`_` for none), without backticks.
        var labels: [String]
        /// The first parameter's type, as written.
        var firstType: String
    }

    /// The `static func` declarations of `source`, outside comments and string literals.
    static func staticFunctions(in source: String) -> [StaticFunction] {
        let code = Array(codeOnly(source).unicodeScalars)
        var result: [StaticFunction] = []
        var index = 0
        // lines[i]: the line number of code[i].
        var lines: [Int] = []
        lines.reserveCapacity(code.count)
        var current = 1
        for scalar in code {
            lines.append(current)
            if scalar == "\n" { current += 1 }
        }
        func matches(_ word: String, at position: Int) -> Bool {
            let scalars = Array(word.unicodeScalars)
            guard position + scalars.count <= code.count else { return false }
            return code[position..<position + scalars.count].elementsEqual(scalars)
        }
        func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "`"
        }
        func skipSpace(_ position: inout Int) {
            while position < code.count, code[position].properties.isWhitespace { position += 1 }
        }
        while index < code.count {
            guard matches("static", at: index), index == 0 || !isIdentifier(code[index - 1]) else {
                index += 1
                continue
            }
            let declarationLine = lines[index]
            var position = index + 6
            guard position < code.count, code[position].properties.isWhitespace else { index += 1; continue }
            skipSpace(&position)
            guard matches("func", at: position), position + 4 < code.count, code[position + 4].properties.isWhitespace else {
                index += 1
                continue
            }
            position += 4
            skipSpace(&position)
            var name = ""
            while position < code.count, isIdentifier(code[position]) {
                if code[position] != "`" { name.unicodeScalars.append(code[position]) }
                position += 1
            }
            skipSpace(&position)
            // Generic parameters: `static func build<T>(`.
            if position < code.count, code[position] == "<" {
                var depth = 0
                repeat {
                    if code[position] == "<" { depth += 1 } else if code[position] == ">" { depth -= 1 }
                    position += 1
                } while position < code.count && depth > 0
                skipSpace(&position)
            }
            guard !name.isEmpty, position < code.count, code[position] == "(" else { index += 1; continue }
            // The parameter list, split at the commas of its own level.
            var depth = 0
            var parameters: [String] = [""]
            position += 1
            while position < code.count {
                let scalar = code[position]
                if scalar == ")" && depth == 0 { break }
                switch scalar {
                case "(", "[", "<": depth += 1
                case ")", "]", ">": depth -= 1
                default: break
                }
                if scalar == "," && depth == 0 {
                    parameters.append("")
                } else {
                    parameters[parameters.count - 1].unicodeScalars.append(scalar)
                }
                position += 1
            }
            let declared = parameters.map { $0.trimmingSpace }.filter { !$0.isEmpty }
            let labels = declared.map { parameter in
                String(parameter.split(separator: ":", maxSplits: 1).first ?? "").trimmingSpace
                    .split(whereSeparator: { $0.isWhitespace }).first.map { $0.replacingOccurrences(of: "`", with: "") } ?? ""
            }
            let firstType = declared.first.map { parameter in
                parameter.split(separator: ":", maxSplits: 1).dropFirst().first.map { String($0).trimmingSpace } ?? ""
            } ?? ""
            result.append(StaticFunction(name: name, line: declarationLine, labels: labels, firstType: firstType))
            index = position
        }
        return result
    }

    /// `source` with comments and string literals blanked out (newlines kept, so lines still count),
    /// so a `static func buildX(` in a doc comment or a string is not taken for a declaration.
    /// Knows nested block comments, multi-line strings and raw strings (`#"…"#`); an
    /// interpolation's code is blanked with its string, which can only hide declarations, and
    /// no declaration sits in an interpolation.
    static func codeOnly(_ source: String) -> String {
        let scalars = Array(source.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
        func blank(_ count: Int) {
            for _ in 0..<count where index < scalars.count {
                out.append(scalars[index] == "\n" ? "\n" : " ")
                index += 1
            }
        }
        /// Whether `"""` (or `"`) then `hashes` times `#` starts at the current index.
        func closes(quotes: Int, hashes: Int) -> Bool {
            (0..<quotes).allSatisfy { at($0) == "\"" } && (0..<hashes).allSatisfy { at(quotes + $0) == "#" }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "/", at(1) == "/" {
                while index < scalars.count, scalars[index] != "\n" { blank(1) }
                continue
            }
            if scalar == "/", at(1) == "*" {
                var depth = 0
                repeat {
                    if at(0) == "/", at(1) == "*" { depth += 1; blank(2) } else if at(0) == "*", at(1) == "/" { depth -= 1; blank(2) } else { blank(1) }
                } while index < scalars.count && depth > 0
                continue
            }
            // A string literal: `#`s (raw), then `"` or `"""`.
            var hashes = 0
            while at(hashes) == "#" { hashes += 1 }
            guard at(hashes) == "\"" else {
                out.append(scalar)
                index += 1
                continue
            }
            let quotes = at(hashes + 1) == "\"" && at(hashes + 2) == "\"" ? 3 : 1
            blank(hashes + quotes)
            while index < scalars.count {
                if hashes == 0, scalars[index] == "\\" { blank(2); continue }
                if quotes == 1, scalars[index] == "\n" { break }
                if closes(quotes: quotes, hashes: hashes) { blank(quotes + hashes); break }
                blank(1)
            }
        }
        return String(out)
    }
}

extension StringProtocol {
    fileprivate var trimmingSpace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
