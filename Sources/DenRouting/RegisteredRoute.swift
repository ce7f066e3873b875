/// One entry of a route table: a pattern, the module that owns it, and its payload.
public struct RegisteredRoute<Value: Sendable>: Sendable {
    public let pattern: RoutePattern
    /// The id of the module that registered the pattern.
    public let owner: String
    public let value: Value

    public init(pattern: RoutePattern, owner: String, value: Value) {
        self.pattern = pattern
        self.owner = owner
        self.value = value
    }
}
