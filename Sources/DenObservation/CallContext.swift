import FoundationEssentials

/// A UI session's identity inside the host (one `NavigationSession`).
public struct UISessionID: Sendable, Hashable, CustomStringConvertible {
    package let value: UInt64

    package init(_ value: UInt64) {
        self.value = value
    }

    public var description: String { "session \(value)" }
}

/// Which UI session the module code running on this thread works for.
///
/// `ModuleCallRunner` runs every builder and `handle` call on its caller's thread and binds the
/// session there for the length of the call; `den_host.call` reads it on the same
/// thread, so a service learns the session without any change to the C ABI. A task-local value
/// bound with the synchronous `withValue` is visible to code on the same thread outside any task,
/// which is exactly a plugin calling back into the host. A call from any other thread (one the
/// module started, or `den_module_entry`) sees nil, and session-bound services refuse it.
package enum CallContext {
    @TaskLocal package static var session: UISessionID?
}
