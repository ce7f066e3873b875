import CDenLibraries
/// A failed call, mapped onto a `den_status` code; `message` tells the module (and the user)
/// what was wrong and what to do.
public struct ServiceFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Codable, Sendable, Equatable {
        case invalidArgument, notFound, unavailable, internalError
        /// The caller's manifest does not ask for the permission the call needs, or it was not
        /// granted (`DEN_ERR_PERMISSION`, ABI revision 5; docs/PERMISSIONS.md).
        case permissionDenied
        /// The caller requires a version of the callee that is not the one loaded (`DEN_ERR_VERSION`;
        /// an export call against the caller's manifest `requires`, docs/CATALOG.md).
        case versionMismatch
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

extension ServiceFailure.Kind {
    /// The kind as the storage library's direct functions return it (den_libraries.h).
    public var storageStatus: Int32 {
        switch self {
        case .invalidArgument: Int32(DEN_STORAGE_INVALID_ARGUMENT)
        case .notFound: Int32(DEN_STORAGE_NOT_FOUND)
        case .unavailable: Int32(DEN_STORAGE_UNAVAILABLE)
        case .internalError, .permissionDenied, .versionMismatch: Int32(DEN_STORAGE_INTERNAL_ERROR)
        }
    }

    /// The kind a direct function's status names; nil for DEN_STORAGE_DONE.
    public init?(storageStatus: Int32) {
        switch storageStatus {
        case Int32(DEN_STORAGE_DONE): return nil
        case Int32(DEN_STORAGE_INVALID_ARGUMENT): self = .invalidArgument
        case Int32(DEN_STORAGE_NOT_FOUND): self = .notFound
        case Int32(DEN_STORAGE_UNAVAILABLE): self = .unavailable
        default: self = .internalError
        }
    }
}
