import DenHost
import DenSupport
import Foundation

/// Which database den keeps its data in: `--database`, else `DEN_DATABASE_URL`, else the first
/// line of `<data dir>/database-url` (a setting that stays with the data folder, off the command
/// line and out of the process list); none of them: SQLite in the data folder.
enum DatabaseSetting {
    static let fileName = "database-url"

    /// The URL and where it came from (for messages), or nil.
    static func resolve(option: String?, dataDirectory: String?,
                        environment: [String: String] = ProcessEnvironment.hostVariables()) -> (url: String, origin: String)? {
        if let option { return (option, "--database") }
        if let url = environment["DEN_DATABASE_URL"], !url.trimmingCharacters(in: .whitespaces).isEmpty {
            return (url, "DEN_DATABASE_URL")
        }
        let folder = dataDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? HostConfiguration.defaultDataDirectory(environment: environment)
        let file = folder.appendingPathComponent(fileName)
        guard let text = try? String(contentsOf: file, encoding: .utf8),
              let line = text.split(whereSeparator: \.isNewline).first.map({ $0.trimmingCharacters(in: .whitespaces) }),
              !line.isEmpty else { return nil }
        return (line, file.path)
    }
}
