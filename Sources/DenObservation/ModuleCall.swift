/// One call into a module, named the way users and logs see it.
public struct ModuleCall: Sendable, Equatable, CustomStringConvertible {
    /// What kind of module code runs: a route's builder, an instance's `handle`, or an export.
    public enum Kind: String, Sendable, CaseIterable {
        case build, handle, export
    }

    package var moduleID: String
    /// e.g. "handle(action 'save')", "handle(appear)", "the builder of route 'jogs/42'".
    package var what: String
    package var kind: Kind
    /// The route pattern the call serves (`jogs/:id`) or the export's name: what metrics and the
    /// slow-call warning name, never the raw path (one label per route, not per jog).
    package var pattern: String

    public init(moduleID: String, what: String, kind: Kind = .handle, pattern: String = "") {
        self.moduleID = moduleID
        self.what = what
        self.kind = kind
        self.pattern = pattern
    }

    public var description: String { "module '\(moduleID)': \(what)" }

    /// The same call as users and logs see it: the module and what it was called for.
    public static func == (lhs: ModuleCall, rhs: ModuleCall) -> Bool {
        lhs.moduleID == rhs.moduleID && lhs.what == rhs.what
    }
}
