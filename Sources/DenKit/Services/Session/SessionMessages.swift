#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The JSON documents of the `session.*` host services (docs/ABI.md): values that live as long as
// one UI session (the terminal session; a browser's cookie session later), not on disk.
//
//   session.get     {"key"}            -> {"value": "…" | null}
//   session.set     {"key", "value"}   -> {}
//   session.delete  {"key"}            -> {"deleted": true | false}
//
// Keys are the calling module's own, except `user`: the logged-in username, readable by every
// module and set only by `auth.login` / cleared by `auth.logout`.

public enum SessionLimits {
    /// The key every module reads the logged-in user from.
    public static let userKey = "user"
    public static let maxKeyBytes = 512
    /// Session values are small things (a draft, a filter), not documents: 64 KiB.
    public static let maxValueBytes = 64 * 1024
}

public struct SessionGetRequest: Codable, Sendable, Equatable {
    public static let operation = "session.get"
    public var key: String
    public init(key: String) { self.key = key }
}

public struct SessionGetAnswer: Codable, Sendable, Equatable {
    public var value: String?
    public init(value: String?) { self.value = value }

    // Always written, as null when absent, so the answer says "nothing" rather than omitting it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
    }
}

public struct SessionSetRequest: Codable, Sendable, Equatable {
    public static let operation = "session.set"
    public var key: String
    public var value: String
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

public struct SessionDeleteRequest: Codable, Sendable, Equatable {
    public static let operation = "session.delete"
    public var key: String
    public init(key: String) { self.key = key }
}

public struct SessionDeleteAnswer: Codable, Sendable, Equatable {
    public var deleted: Bool
    public init(deleted: Bool) { self.deleted = deleted }
}
