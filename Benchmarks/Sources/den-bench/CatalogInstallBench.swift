import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Figure 15b: `den modules install <id> --yes` from a catalog served by a real nginx on
/// loopback, against `den modules install <file> --yes` of the same signed file, each a whole
/// `den` process as a user runs it. Set up once: a key (`den keys generate`, trusted at once), the
/// module published to a catalog folder (`den modules publish`, which signs the file and the
/// index), nginx serving that folder, and the source added (`den modules sources add`). Both
/// installs run under `require-signature`, so both check the file's signature; the catalog's
/// also reads and checks the signed index, resolves, and downloads the file and its signature.
/// Every install goes into fresh data, cache and modules folders, removed after it, so each is a
/// first install; only the configuration (keys, trust list, sources) is shared.
struct CatalogInstallBench {
    struct Result {
        var file = Samples()
        var catalog = Samples()
        var module = ""
        var fileBytes = 0
        var failures: [String] = []
    }

    let denPath: String
    let module: URL
    let rounds: Int
    let workDirectory: URL

    func run() throws -> Result {
        var result = Result()
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        var base = ProcessInfo.processInfo.environment
        for name in ["DEN_PLUGIN_PATH", "DEN_LOG_LEVEL", "DEN_EAGER", "DEN_TRUST_POLICY", "DEN_DATABASE_URL",
                     "http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"] {
            base.removeValue(forKey: name)
        }
        base["DEN_CONFIG_DIR"] = workDirectory.appendingPathComponent("config").path
        base["DEN_PLUGIN_PATH"] = ""
        base["NO_COLOR"] = "1"
        // Both installs check the file's signature; without it, den's own bundled Main (unsigned,
        // beside den) would count as running and the catalog install would have nothing to do.
        base["DEN_TRUST_POLICY"] = "require-signature"

        /// The environment of one install: its own data, cache and modules folders under `folder`.
        func environment(_ folder: URL) -> [String] {
            var environment = base
            environment["DEN_DATA_DIR"] = folder.appendingPathComponent("data").path
            environment["DEN_CACHE_DIR"] = folder.appendingPathComponent("cache").path
            environment["XDG_DATA_HOME"] = folder.appendingPathComponent("xdg").path
            return environment.map { "\($0.key)=\($0.value)" }
        }
        let log = workDirectory.appendingPathComponent("den.log").path
        /// Runs den and returns its time, or nil after recording what went wrong.
        func den(_ arguments: [String], in folder: URL) throws -> (nanoseconds: UInt64, output: String)? {
            let (status, elapsed) = try TimedSpawn.run(denPath, arguments, environment(folder), output: log)
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            guard status == 0 else {
                result.failures.append("den \(arguments.joined(separator: " ")) exited with \(status): \(output.prefix(600))")
                return nil
            }
            return (elapsed, output)
        }

        let setup = workDirectory.appendingPathComponent("setup")
        let catalogFolder = workDirectory.appendingPathComponent("catalog")
        guard try den(["keys", "generate", "bench", "--as", "Den Bench"], in: setup) != nil,
              let published = try den(["modules", "publish", module.path, "--to", catalogFolder.path, "--key", "bench"], in: setup)
        else { return result }
        // "Published main 1.0.0 to <dir> (index serial 1): files/main/main-1.0.0.so, signed with key …"
        let words = published.output.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," })
        guard let at = words.firstIndex(of: "Published"), at + 2 < words.count,
              let relative = words.first(where: { $0.hasPrefix("files/") && $0.hasSuffix(".so") }) else {
            result.failures.append("cannot read what den modules publish published: \(published.output)")
            return result
        }
        let (id, version) = (String(words[at + 1]), String(words[at + 2]))
        result.module = "\(id) \(version)"
        let signedFile = catalogFolder.appendingPathComponent(String(relative))
        result.fileBytes = Self.size(of: signedFile.path) ?? 0

        let nginx = try CatalogNginx(serving: catalogFolder, folder: workDirectory.appendingPathComponent("nginx"))
        defer { nginx.stop() }
        guard try den(["modules", "sources", "add", nginx.address], in: setup) != nil else { return result }

        /// One install into fresh folders: timed, then checked (exit 0, said so, the file in place), then removed.
        func install(_ what: String, round: Int) throws -> UInt64? {
            let folder = workDirectory.appendingPathComponent("round-\(round)-\(what == id ? "catalog" : "file")")
            defer { try? fileManager.removeItem(at: folder) }
            guard let (elapsed, output) = try den(["modules", "install", what, "--yes"], in: folder) else { return nil }
            let installed = folder.appendingPathComponent("xdg/den/modules").appendingPathComponent(signedFile.lastPathComponent)
            let size = Self.size(of: installed.path)
            guard output.contains("Installed \(id) \(version)"), size == result.fileBytes else {
                result.failures.append("den modules install \(what) exited 0 but \(installed.path) is \(size.map { "\($0) bytes" } ?? "missing"): \(output.prefix(600))")
                return nil
            }
            return elapsed
        }
        // One of each first (not counted): the page cache, den's first libraries.
        for round in -1..<rounds {
            // Alternating which goes first, so neither always follows the other.
            let order = round % 2 == 0 ? [signedFile.path, id] : [id, signedFile.path]
            for what in order {
                guard let elapsed = try install(what, round: round) else { return result }
                if round >= 0 {
                    if what == id { result.catalog.add(elapsed) } else { result.file.add(elapsed) }
                }
            }
        }
        return result
    }

    static func size(of path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }
}
