import DenHost
import DenSupport
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Keeps this den's `RunningDenStatus` up to date with the module that takes most of its module
/// time (`ModuleTimeShare`), so that `den plugins` in another process names it: looks every
/// `period`, writes only when the blame changed, and removes the file when stopped.
package final class BusyReport: Sendable {
    private let runtime: DenRuntime
    private let watching: Bool
    private let period: Duration
    private let stopped = Atomic<Bool>(false)
    private let wake = ThreadSignal()
    /// "jogs took 83% of …", or nil: the runtime's time share unless a spec says otherwise.
    private let busiest: @Sendable () -> String?

    package init(runtime: DenRuntime, watching: Bool, period: Duration = .seconds(10), busiest: (@Sendable () -> String?)? = nil) {
        self.runtime = runtime
        self.watching = watching
        self.period = period
        let timeShare = runtime.timeShare
        self.busiest = busiest ?? { timeShare.blame().map { "\($0.moduleID) \($0.text)" } }
    }

    package func start() throws(HostThread.StartFailure) {
        try HostThread.start(name: "den busy report") { [self] in
            var said: String?? = .none
            while !stopped.load(ordering: .acquiring) {
                let busiest = self.busiest()
                // Nothing to say yet, and no file: none is written (den plugins shows nothing).
                if said == .none, busiest == nil, !watching {
                    said = .some(nil)
                } else if said != .some(busiest) {
                    RunningDenStatus.write(runtime.registry.plugins.map(\.summaryDocument), cache: runtime.configuration.cacheDirectory,
                                           watching: watching, busiest: busiest)
                    said = .some(busiest)
                }
                _ = wake.wait(upTo: period)
            }
        }
    }

    package func stop() {
        stopped.store(true, ordering: .releasing)
        wake.signal()
        let file = RunningDenStatus.folder(cache: runtime.configuration.cacheDirectory).appendingPathComponent("den-\(getpid()).json")
        try? FileManager.default.removeItem(at: file)
    }
}
