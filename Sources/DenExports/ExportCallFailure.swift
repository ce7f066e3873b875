import CDenABI
import DenKit

/// Why an export call did not produce a result. `message` names the export and says what to do;
/// `status` is what `exports.call` answers (a `den_status`, or the export's own status).
public struct ExportCallFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// No active module offers this export, or the name is malformed.
        case unknownExport
        /// The arguments do not match the signature (count or type).
        case badArguments
        /// The export ran and returned an error status with its message.
        case failed
        /// The export broke the calling convention (a string without release, not UTF-8, too
        /// large, a non-finite f64), or the call could not be made.
        case misbehaved
        /// The host gave up waiting (`den call`'s call limit) or the chain of calls was too deep.
        case gaveUp
    }

    package var kind: Kind
    package var status: Int32
    package var message: String

    package init(_ kind: Kind, status: den_status, _ message: String) {
        self.init(kind, status: Int32(status.rawValue), message)
    }

    package init(_ kind: Kind, status: Int32, _ message: String) {
        self.kind = kind
        self.status = status
        self.message = message
    }

    public var description: String { message }
}
