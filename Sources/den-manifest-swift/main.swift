import DenManifestCodegen
import Foundation

// `den-manifest-swift <module.json> <output.swift> <prefix> [<source.swift> ...]`: DenManifestPlugin
// runs it at build time with the target's Swift sources. A bad module.json fails the build with
// `<file>: error: <field>: <problem>. <fix>`; a builder or export function in the sources that
// module.json does not declare fails it with `<source>:<line>: error: <function> is …`
// (UndeclaredFunctionScan says why the sources are read).
let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: den-manifest-swift <module.json> <output.swift> <prefix> [<source.swift> ...]\n".utf8))
    exit(2)
}
let (input, output, prefix) = (arguments[1], arguments[2], arguments[3])
do {
    guard let data = FileManager.default.contents(atPath: input) else {
        throw ManifestProblem(file: input, field: "(file)", problem: "cannot be read",
                              fix: "Put the module's manifest at Manifest/module.json in the target's folder (docs/WRITING_MODULES.md).")
    }
    let manifest = try CheckedManifest(data: data, file: input)
    var findings: [UndeclaredFunctionScan.Finding] = []
    for path in arguments.dropFirst(4) {
        guard let text = FileManager.default.contents(atPath: path) else { continue }
        findings += UndeclaredFunctionScan.findings(in: String(decoding: text, as: UTF8.self), file: path, manifest: manifest)
    }
    if !findings.isEmpty {
        FileHandle.standardError.write(Data(findings.map { $0.description + "\n" }.joined().utf8))
        exit(1)
    }
    let source = ModuleSwiftSource(manifest: manifest, prefix: prefix, sourceName: "Manifest/module.json").render()
    // Written only when it changed, so an unchanged module.json recompiles nothing.
    if FileManager.default.contents(atPath: output) != Data(source.utf8) {
        try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    }
} catch let problem as ManifestProblem {
    FileHandle.standardError.write(Data((problem.description + "\n").utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("\(output): error: cannot write the generated Swift: \(error)\n".utf8))
    exit(1)
}
