/// Collects the navigation a module's Router asks for while it handles one event; the host
/// applies the effects after the reply. One per module instance.
public final class Navigation {
    private var pending: [Effect] = []

    public init() {}

    public func navigate(to route: String) { pending.append(.navigate(route)) }
    public func back() { pending.append(.back) }
    public func replace(with route: String) { pending.append(.replace(route)) }
    public func open(url: String) { pending.append(.openURL(url)) }

    /// The effects recorded since the last call, oldest first.
    public func drain() -> [Effect] {
        defer { pending.removeAll() }
        return pending
    }
}
