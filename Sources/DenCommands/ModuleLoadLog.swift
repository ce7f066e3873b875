import DenHost
import DenSupport
import Logging

/// The log lines modules write while a trial runtime loads them (`den modules install`), kept
/// so a refusal can show what the refused module said about itself — often the real reason
/// ("FAILING_API_KEY is not set") behind "its entry point returned DEN_ERR_SERVICE (6)".
final class ModuleLoadLog: Sendable {
    private let collector = LogCollector()

    /// A logger that keeps lines from info up; only modules' lines (with `module` metadata) are shown.
    var logger: Logger { collector.logger(label: "den-install", level: .info) }

    /// The lines logged under the file name `file` or the module id `id` (nil: not that way),
    /// as the user reads them.
    func lines(file: String?, id: String?) -> [String] {
        collector.lines
            .filter { line in line.module.map { (file != nil && $0 == file) || (id != nil && $0 == id) } ?? false }
            .map { "[\($0.level.rawValue)] \($0.message)" }
    }
}
