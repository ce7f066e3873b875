/// Calls other modules' exports by name, without linking them (host service `exports.call`).
/// Interactors depend on this protocol; tests use a mock.
public protocol ExportCalling: Sendable {
    /// Calls `<module>.<function>` with arguments in the order of its signature.
    /// Throws `ExportCallError`, whose `message` can be shown to the user as it is.
    func call(_ name: String, _ arguments: [ExportValue]) throws(ExportCallError) -> ExportValue
    /// Every export of every active module.
    func list() throws(ExportCallError) -> [ExportSummary]
}

extension ExportCalling {
    /// Calls an export that returns a string.
    public func callString(_ name: String, _ arguments: [ExportValue]) throws(ExportCallError) -> String {
        let value = try call(name, arguments)
        guard case .string(let text) = value else {
            throw ExportCallError(name: name, status: 7, message: "\(name) returned \(value.type), not a string")
        }
        return text
    }
}

/// Why a call failed: the host's or the export's status and message. `isMissing` is true when no
/// loaded module offers the export (not installed, failed to load, or an older module).
public struct ExportCallError: Error, Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var status: Int32
    public var message: String

    public init(name: String, status: Int32, message: String) {
        self.name = name
        self.status = status
        self.message = message
    }

    /// `DEN_ERR_NOT_FOUND` from the host: no such module or export.
    public var isMissing: Bool { status == 2 && message.hasPrefix("no export") }

    public var description: String { message }
}

/// `ExportCalling` over the host's `exports.call` and `exports.list`.
public struct HostExports: ExportCalling {
    private let host: HostServices

    public init(_ host: HostServices) {
        self.host = host
    }

    public func call(_ name: String, _ arguments: [ExportValue]) throws(ExportCallError) -> ExportValue {
        do {
            return try host.call(ExportCallRequest.operation, ExportCallRequest(name: name, arguments: arguments),
                                 as: ExportCallAnswer.self).value
        } catch {
            throw ExportCallError(name: name, status: error.status, message: error.message)
        }
    }

    public func list() throws(ExportCallError) -> [ExportSummary] {
        do {
            return try host.call(ExportListAnswer.operation, Empty(), as: ExportListAnswer.self).exports
        } catch {
            throw ExportCallError(name: ExportListAnswer.operation, status: error.status, message: error.message)
        }
    }
}
