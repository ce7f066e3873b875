import ArgumentParser
import DenCommandLine
import DenHost
import DenSupport
import DenTrust
import DenKit
import Foundation

/// `den plugins --inspect <file>`: a module file's ABI version, toolchain and manifest, read
/// without loading it (no code of the module runs).
enum PluginInspection {
    /// `trust`: the policy and trust lists the file's signature is judged by (those of a den
    /// started with the same options).
    static func run(_ path: String, json: Bool, trust: ModuleTrust) throws {
        var inspection: ModuleFileInspection
        do {
            inspection = try ModuleFileInspection.inspect(URL(fileURLWithPath: path))
            inspection.judgeSignature(trust)
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(ExitStatus.failure)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(inspection), as: UTF8.self))
        } else {
            print(text(inspection))
        }
        if !inspection.problems.isEmpty { throw ExitCode(ExitStatus.failure) }
    }

    static func text(_ inspection: ModuleFileInspection) -> String {
        func clean(_ text: String, limit: Int = 300) -> String { ModuleText.singleLine(text, limit: limit) }
        var lines = ["file: \(clean(inspection.file))"]
        let abi = inspection.abiVersion.map(String.init) ?? "none (no den_abi_version)"
        lines.append("ABI version: \(abi) (this den: \(ModuleFileInspection.hostABIVersion))")
        let toolchain = inspection.toolchain.map { $0 == ModuleFileInspection.hostToolchain ? "\(clean($0)) (this den's)" : "\(clean($0)) (this den: \(ModuleFileInspection.hostToolchain))" }
        lines.append("toolchain: \(toolchain ?? "not stated (a plugin without Swift)")")
        if let manifest = inspection.manifest {
            lines.append("manifest (den_manifest):")
            lines.append("  id: \(clean(manifest.id))")
            lines.append("  version: \(clean(manifest.version))")
            if !manifest.summary.isEmpty { lines.append("  summary: \(clean(manifest.summary))") }
            lines.append("  routes:\(manifest.routes.isEmpty ? " none" : "")")
            for route in manifest.routes {
                lines.append("    \(clean(route.pattern))\(route.requiresLogin ? " (requires login)" : "")")
            }
            lines.append("  settings:\(manifest.settings.isEmpty ? " none" : "")")
            for setting in manifest.settings {
                lines.append("    \(clean(setting.name)) = \(clean(setting.defaultValue)) (\(clean(setting.rule))): \(clean(setting.help))")
            }
            lines.append("  exports:\(manifest.exports.isEmpty ? " none" : "")")
            for export in manifest.exports {
                lines.append("    \(clean(export.name))\(export.signature.map { " \(clean($0))" } ?? "")")
            }
            lines.append("  requires:\(manifest.requires.isEmpty ? " nothing" : "")")
            for (id, range) in manifest.requires.sorted(by: { $0.key < $1.key }) { lines.append("    \(clean(id)) \(clean(range))") }
            lines.append("  permissions:\(manifest.permissions.isEmpty ? " none beyond its own data (docs/PERMISSIONS.md)" : "")")
            for line in manifest.permissions.lines { lines.append("    \(clean(line))") }
        } else if let problem = inspection.manifestProblem {
            lines.append("manifest: refused: \(clean(problem, limit: 600))")
        } else {
            lines.append("manifest: none (den loads this file at start to learn what it provides)")
        }
        if let signature = inspection.signature {
            lines.append("signature: \(clean(signature.text, limit: 600))")
            let decision = switch signature.decision {
            case "in-process": "runs"
            case "isolated": "runs isolated and sandboxed (\(clean(signature.reason ?? "", limit: 400)))"
            default: "refused"
            }
            lines.append("trust policy \(signature.policy): \(decision)")
        }
        for problem in inspection.problems { lines.append("PROBLEM \(clean(problem, limit: 800))") }
        return lines.joined(separator: "\n")
    }
}
