import DenKit
import DenSupport
import FoundationEssentials

/// The per-module hosting setting, `den config set den.hosting <module> isolated`: kept in
/// `hosting.json` in den's data folder, not in storage, so that choosing a module's mode at start
/// costs one read of a small file (usually absent) instead of opening the database.
package enum HostingSettings {
    /// The id `den config` knows these settings by (a dot: no module id can take it).
    package static let settingsID = "den.hosting"

    /// A module's setting name: its id with `_` for `-` (setting names allow no `-`).
    package static func name(for moduleID: String) -> String {
        moduleID.replacing("-", with: "_")
    }

    /// One choice setting per module id.
    package static func definitions(for moduleIDs: [String]) -> [SettingDefinition] {
        moduleIDs.sorted().map { id in
            SettingDefinition(name(for: id), kind: .choice, default: HostingPolicy.defaultMode.rawValue,
                              help: "Where module \(id) runs: in den's process, or isolated in a worker process of its own (restarted after a crash, sandboxed). --isolate wins over this.",
                              options: HostingPolicy.Mode.allCases.map(\.rawValue))
        }
    }

    static func file(in dataDirectory: URL) -> String {
        dataDirectory.appendingPathComponent("hosting.json").path
    }

    /// Every stored value, by setting key (`config.<name>`).
    package static func stored(in dataDirectory: URL) -> [String: String] {
        guard let bytes = FileBytes.read(atPath: file(in: dataDirectory), limit: 1 << 20),
              let values = try? JSONDecoder().decode([String: String].self, from: Data(bytes)) else { return [:] }
        return values
    }

    package static func store(_ values: [String: String], in dataDirectory: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try PrivateFolder.write(encoder.encode(values), to: URL(fileURLWithPath: file(in: dataDirectory)))
    }

    /// The modes chosen, by setting name; a value that is no mode is ignored (`den config show`
    /// says it is refused).
    package static func configured(in dataDirectory: URL) -> [String: HostingPolicy.Mode] {
        var modes: [String: HostingPolicy.Mode] = [:]
        for (key, value) in stored(in: dataDirectory) where key.hasPrefix(ModuleSettings.key("")) {
            if let mode = HostingPolicy.Mode(rawValue: value) { modes[String(key.dropFirst(ModuleSettings.key("").count))] = mode }
        }
        return modes
    }
}
