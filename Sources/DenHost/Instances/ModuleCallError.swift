import CDenABI
import DenSupport

/// A module instance or builder reported an error, or answered with something unreadable.
package struct ModuleCallError: Error, Sendable, Equatable, CustomStringConvertible {
    package var moduleID: String
    package var status: Int32
    package var message: String
    /// True when the host gave up waiting for the call (it ran past the call limit or the user
    /// interrupted it): the instance is abandoned and its screen closed.
    package var isStall: Bool
    /// True when the host refused what the module did (a reply over the limit, a table without
    /// functions) rather than the module returning an error status: the message says what the
    /// module did, and the status's wording ("rejected the input") would put it the wrong way round.
    package var isHostFinding: Bool

    package init(moduleID: String, status: Int32, message: String, isStall: Bool = false, isHostFinding: Bool = false) {
        self.moduleID = moduleID
        self.status = status
        self.message = message
        self.isStall = isStall
        self.isHostFinding = isHostFinding
    }

    package var description: String {
        if isStall || isHostFinding { return "module '\(moduleID)' \(message)" }
        return "module '\(moduleID)' \(StatusText.text(status)): \(message.isEmpty ? "no details given" : message)"
    }

    /// How the module refused what it was asked, when it did so on purpose: the input was wrong,
    /// not the module. Nil for a failure (a crash, a service down, a stall, a host finding).
    package enum Refusal: Sendable, Equatable {
        case invalidInput, notFound, unsupported, conflict
    }

    package var refusal: Refusal? {
        if isStall || isHostFinding { return nil }
        switch UInt32(bitPattern: status) {
        case DEN_ERR_INVALID_ARGUMENT.rawValue: return .invalidInput
        case DEN_ERR_NOT_FOUND.rawValue: return .notFound
        case DEN_ERR_UNSUPPORTED.rawValue: return .unsupported
        case DEN_ERR_CONFLICT.rawValue: return .conflict
        default: return nil
        }
    }

    /// "DEN_ERR_NOT_FOUND", or "status 42" for a code den_module.h does not define.
}
