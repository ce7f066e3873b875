import DenHost
import DenKit
import FoundationEssentials

/// The terminal's session values (`session.*`, such as Main's last conversion), kept across runs
/// in the data folder, as a browser's are kept with its session: a module reads the same values
/// in every `den run` and `den render` of this data folder. The login is not kept: each run
/// starts logged out.
package struct TerminalValues: Sendable {
    static let namespace = "@den.terminal"
    static let key = "values"

    let runtime: DenRuntime
    let session: UISessionID

    package init(runtime: DenRuntime, session: UISessionID) {
        self.runtime = runtime
        self.session = session
    }

    /// Loads the kept values into the session when a module first reads or writes one.
    package func attach() {
        let storage = runtime.storage, logger = runtime.logger
        runtime.sessions.loadValues(of: session) { () throws(ServiceFailure) in
            // Storage that cannot be read: the module that asked hears why (Main says its last
            // conversion could not be read back), and nothing is kept over the stored values.
            guard let text = try storage.get(namespace: Self.namespace, key: Self.key) else { return [:] }
            do {
                return try JSONDecoder().decode([String: [String: String]].self, from: Data(text.utf8))
            } catch {
                // A damaged record holds nothing to use: said once, then replaced by this run's values.
                logger.warning("den could not read the terminal's kept session values, which are damaged (\(error)); this run starts without them and keeps its own")
                return [:]
            }
        }
    }

    /// Keeps the session's values when they differ from `last` (the values kept before, or nil);
    /// returns the values now kept.
    package func keep(after last: [String: [String: String]]?) -> [String: [String: String]]? {
        // Untouched this run (its loader never ran): nothing to keep.
        guard let values = runtime.sessions.values(of: session), values != last, last != nil || !values.isEmpty else { return last }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let text = String(decoding: try encoder.encode(values), as: UTF8.self)
            try runtime.storage.set(namespace: Self.namespace, key: Self.key, value: text)
            return values
        } catch {
            runtime.logger.warning("den could not keep the terminal's values (\(error)); the next run starts without this run's")
            return last
        }
    }
}
