import CDenABI
import DenExports
import DenKit
import FoundationEssentials

extension DenRuntime {
    /// The exports of the active modules (`den exports`).
    public var exports: [ModuleExport] { registry.exports.all }

    /// Calls an export with command-line words (`den call main.convert 100 USD EUR`): the words
    /// are checked against its signature, then the export runs on this thread under the host's
    /// call limit (`--call-timeout`), outside any UI session. Past the limit the watchdog gives
    /// it up: with `handOff` (`den call`'s, which ends the process) at once; without, the caller
    /// gets the failure once the export returns, and its late result is discarded.
    package func callExport(_ name: String, words: [String], handOff: CallHandOff? = nil) -> Result<ExportValue, ExportCallFailure> {
        let export: ModuleExport
        let values: [ExportValue]
        switch registry.exports.find(name) {
        case .success(let found): export = found
        case .failure(let failure): return .failure(failure)
        }
        do { values = try ExportArguments.parse(words, for: export) } catch { return .failure(error) }
        let runner = ModuleCallRunner(policy: configuration.callPolicy, handOff: handOff, observer: callObserver)
        let call = ModuleCall(moduleID: export.moduleID, what: "export \(export.function)", kind: .export, pattern: export.name)
        let status: (Result<ExportValue, ExportCallFailure>) -> Int32 = { if case .failure(let failure) = $0 { failure.status } else { Int32(DEN_OK.rawValue) } }
        switch runner.run(call, status: status, { ExportCallDepth.$current.withValue(1) { ExportInvoker.invoke(export, values) } }) {
        case .success(let outcome):
            return outcome
        case .failure(.noThread(let failure)):
            logger.error("\(call): \(failure)")
            return .failure(ExportCallFailure(.gaveUp, status: DEN_ERR_INTERNAL, "\(export.name) could not be called: \(failure)"))
        case .failure(let giveUp):
            let after = switch giveUp { case .timedOut(let after), .interrupted(let after): after; case .noThread: Duration.zero }
            logger.error("\(call): given up after \(ModuleCallRunner.format(after))")
            return .failure(ExportCallFailure(.gaveUp, status: DEN_ERR_INTERNAL, Self.gaveUpText(export.name, after: after)))
        }
    }

    /// What `den call` says of an export given up after `after`.
    package static func gaveUpText(_ name: String, after: Duration) -> String {
        "\(name) did not return within \(ModuleCallRunner.format(after)) (the call limit, --call-timeout); den gave up on it"
    }

    /// Calls an export with JSON values, as `exports.call` does, on this thread.
    public func callExport(_ name: String, arguments: [ExportValue]) -> Result<ExportValue, ExportCallFailure> {
        ExportsService.call(name, arguments: arguments, table: registry.exports)
    }
}
