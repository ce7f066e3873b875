#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One live module stack for one screen in one UI session, as the host sees it.
public protocol ModuleInstance: AnyObject {
    func handle(_ event: ModuleEvent) throws -> ModuleReply
    /// A field that asked for change events (`Field.changes`) changed; reply like for an action.
    func handleChange(_ change: FieldChange) throws -> ModuleReply
    /// State for a hot swap, as bytes (objects cannot move between versions of a plugin).
    func snapshot() throws -> Data
    /// Restores `snapshot()` bytes, possibly written by an older version of the module.
    func restore(_ state: Data) throws
}

public extension ModuleInstance {
    func handleChange(_ change: FieldChange) throws -> ModuleReply {
        throw ModuleError.unsupported("this module does not handle change events (it set no field's `changes`)")
    }
    func snapshot() throws -> Data { throw ModuleError.unsupported("this module keeps no state across a swap") }
    func restore(_ state: Data) throws { throw ModuleError.unsupported("this module keeps no state across a swap") }
}

/// The usual instance: a VIPER stack reached through its View, with the Router's `Navigation`.
/// `state` optionally saves and restores the stack's state across a hot swap.
public final class VIPERInstance: ModuleInstance {
    public let view: any ModuleView
    private let navigation: Navigation
    private let state: (any ModuleStateCodec)?

    public init(view: any ModuleView, navigation: Navigation, state: (any ModuleStateCodec)? = nil) {
        self.view = view
        self.navigation = navigation
        self.state = state
    }

    public func handle(_ event: ModuleEvent) throws -> ModuleReply {
        view.handle(event)
        return ModuleReply(screen: view.screen, effects: navigation.drain())
    }

    public func handleChange(_ change: FieldChange) throws -> ModuleReply {
        view.handleChange(change)
        return ModuleReply(screen: view.screen, effects: navigation.drain())
    }

    public func snapshot() throws -> Data {
        guard let state else { throw ModuleError.unsupported("this module keeps no state across a swap") }
        return try state.snapshot()
    }

    public func restore(_ data: Data) throws {
        guard let state else { throw ModuleError.unsupported("this module keeps no state across a swap") }
        try state.restore(data)
    }
}

/// Saves and restores a stack's state (usually the presenter's) as bytes.
public protocol ModuleStateCodec: AnyObject {
    func snapshot() throws -> Data
    func restore(_ data: Data) throws
}

/// Errors a module reports to the host; the message is shown to the user.
public enum ModuleError: Error, CustomStringConvertible, Equatable {
    case invalidParameter(String)
    case unsupported(String)
    case failed(String)

    public var description: String {
        switch self {
        case .invalidParameter(let message), .unsupported(let message), .failed(let message): message
        }
    }
}
