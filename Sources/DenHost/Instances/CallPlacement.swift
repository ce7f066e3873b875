/// Where a session's module calls run, and so what the call limit can do about one that never
/// returns (docs/ABI.md, "A call that never returns").
public enum CallPlacement: Sendable {
    /// A thread per call: past the limit the caller gives the call up and goes on without it.
    /// For every process that outlives a stuck call (`den run`, `den serve`).
    case ownThread
    /// The calling thread, under the call alarm (`CallAlarm`): past the limit the process says
    /// so and exits. For a one-shot command that ends after its calls anyway (`den render`),
    /// whose start the thread would cost ≈ 0.3 ms of ≈ 5 (docs/PERFORMANCE.md). A call made while
    /// the alarm is armed (from inside another call) falls back to a thread of its own.
    case callingThread(ProcessEnding)
}

/// What the process writes to standard error, and how it exits, when a call on the calling thread
/// passes the limit.
public struct ProcessEnding: Sendable {
    /// The exit status.
    package var status: Int32
    /// What the end means, said after the call's description ("den render ends here").
    package var consequence: String
    /// The error in the command's words ("Error: …\n"). It is made before every call, because
    /// the alarm can only write bytes that were ready before it went off.
    package var message: @Sendable (ModuleCallError) -> String

    package init(status: Int32, consequence: String, message: @escaping @Sendable (ModuleCallError) -> String) {
        self.status = status
        self.consequence = consequence
        self.message = message
    }
}
