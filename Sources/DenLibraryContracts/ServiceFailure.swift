/// A failed call, mapped onto a `den_status` code; `message` tells the module (and the user)
/// what was wrong and what to do.
public struct ServiceFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Codable, Sendable, Equatable {
        case invalidArgument, notFound, unavailable, internalError
    }
    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    public static func invalid(_ message: String) -> ServiceFailure { .init(.invalidArgument, message) }
    public static func unavailable(_ message: String) -> ServiceFailure { .init(.unavailable, message) }
}
