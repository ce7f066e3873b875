#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The current UI session's values (host service `session.*`), e.g. a half-filled form or the
/// logged-in user. Interactors depend on this protocol; tests use `InMemorySessionValues`.
public protocol SessionValues: Sendable {
    func get(_ key: String) throws -> String?
    func set(_ value: String, forKey key: String) throws
    @discardableResult func delete(_ key: String) throws -> Bool
}

extension SessionValues {
    /// The logged-in username, or nil when nobody is logged in.
    public func loggedInUser() throws -> String? {
        try get(SessionLimits.userKey)
    }
}

/// `SessionValues` over the host's `session.*` services. Works only inside a builder or
/// `handle` call (the host knows the UI session from the call); elsewhere the host refuses.
public struct HostSessionValues: SessionValues {
    private let host: HostServices

    public init(_ host: HostServices) {
        self.host = host
    }

    public func get(_ key: String) throws -> String? {
        try host.call(SessionGetRequest.operation, SessionGetRequest(key: key), as: SessionGetAnswer.self).value
    }

    public func set(_ value: String, forKey key: String) throws {
        _ = try host.call(SessionSetRequest.operation, SessionSetRequest(key: key, value: value), as: Empty.self)
    }

    @discardableResult
    public func delete(_ key: String) throws -> Bool {
        try host.call(SessionDeleteRequest.operation, SessionDeleteRequest(key: key), as: SessionDeleteAnswer.self).deleted
    }
}

/// `SessionValues` in memory, for tests and previews.
public final class InMemorySessionValues: SessionValues, @unchecked Sendable {
    private let lock = Lock()
    private var values: [String: String]

    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    public func get(_ key: String) throws -> String? { lock.withLock { values[key] } }
    public func set(_ value: String, forKey key: String) throws { lock.withLock { values[key] = value } }
    @discardableResult
    public func delete(_ key: String) throws -> Bool { lock.withLock { values.removeValue(forKey: key) != nil } }
}
