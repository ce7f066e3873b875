/// Two patterns that match exactly the same routes (same literals, same placeholder types at the
/// same positions; names do not matter). Refused at registration, so routing is never ambiguous.
public struct RouteConflictError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern being added, as written.
    public let pattern: String
    /// The module adding it.
    public let owner: String
    /// The pattern already registered, as written.
    public let existingPattern: String
    /// The module that registered it.
    public let existingOwner: String
    /// What both patterns reduce to once names are dropped, e.g. `jogs/<int>`.
    public let shape: String

    public init(pattern: String, owner: String, existingPattern: String, existingOwner: String, shape: String) {
        self.pattern = pattern
        self.owner = owner
        self.existingPattern = existingPattern
        self.existingOwner = existingOwner
        self.shape = shape
    }

    public var description: String {
        let clash = "Route pattern \"\(pattern)\" from module \"\(owner)\" conflicts with \"\(existingPattern)\" "
        let reason = "both match exactly the same routes (\(shape)), so the router could not tell them apart."
        if owner == existingOwner {
            return clash + "already registered by the same module: " + reason
                + " Remove one registration or make the patterns differ (e.g. by a literal segment)."
        }
        return clash + "registered by module \"\(existingOwner)\": " + reason
            + " Change one of the patterns (e.g. add a distinguishing literal segment), or unload module "
            + "\"\(existingOwner)\" first if \"\(owner)\" replaces it."
    }
}
