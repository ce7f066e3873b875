/// A catch-all pattern that could never match: more preferred patterns (string placeholders, see
/// `RoutePrecedence`) take every route it matches. Refused at registration like a conflict, so
/// no registered route is silently dead.
public struct RouteUnreachableError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A pattern and the module that registered it.
    public struct Route: Sendable, Hashable, CustomStringConvertible {
        public let pattern: String
        public let owner: String

        public init(pattern: String, owner: String) {
            self.pattern = pattern
            self.owner = owner
        }

        public var description: String { "\"\(pattern)\" (module \"\(owner)\")" }
    }

    /// The pattern being added, as written.
    public let pattern: String
    /// The module adding it.
    public let owner: String
    /// The catch-all that could never match: `pattern` itself, or one already registered.
    public let unreachablePattern: String
    /// The module that registered (or is adding) `unreachablePattern`.
    public let unreachableOwner: String
    /// The patterns that together take every route `unreachablePattern` matches (may include `pattern`).
    public let takenBy: [Route]

    public init(pattern: String, owner: String, unreachablePattern: String, unreachableOwner: String, takenBy: [Route]) {
        self.pattern = pattern
        self.owner = owner
        self.unreachablePattern = unreachablePattern
        self.unreachableOwner = unreachableOwner
        self.takenBy = takenBy
    }

    public var description: String {
        let shown = takenBy.prefix(4).map(\.description)
        let more = takenBy.count > 4 ? " and \(takenBy.count - 4) more" : ""
        let list = shown.count > 1 ? shown.dropLast().joined(separator: ", ") + " and " + shown.last! : shown.joined()
        let why = "a string placeholder is tried before a catch-all, and \(list)\(more) take every route "
            + "\"\(unreachablePattern)\" matches."
        if unreachablePattern == pattern, unreachableOwner == owner {
            return "Route pattern \"\(pattern)\" from module \"\(owner)\" could never match: \(why) "
                + "Remove it, or give it a literal segment that the others do not have."
        }
        return "Route pattern \"\(pattern)\" from module \"\(owner)\" would make \"\(unreachablePattern)\" registered by "
            + "module \"\(unreachableOwner)\" unreachable (it could never match): \(why) Change one of the patterns "
            + "(e.g. add a distinguishing literal segment), or unload module \"\(unreachableOwner)\" first if "
            + "\"\(owner)\" replaces it."
    }
}
