import DenLibraryContracts
import DenKit
import FoundationEssentials

/// One host service reachable from modules through `den_host.call`. Requests and answers are
/// JSON documents (docs/ABI.md); the `ServiceHub` routes each operation name to its service.
public protocol HostService: Sendable {
    /// The operation names this service answers, e.g. `["storage.get", "storage.set"]`.
    var operations: [String] { get }
    /// Answers one call. Runs on the calling module's thread and may block (disk, network).
    func handle(_ operation: String, request: Data, caller: ServiceCaller) throws(ServiceFailure) -> Data
}

/// Who is calling: services namespace their data by module id, and the `session` and `auth`
/// services act on the caller's UI session.
public struct ServiceCaller: Sendable, Hashable {
    package var moduleID: String
    /// The UI session whose builder or `handle` call made this call (`CallContext`); nil for a
    /// call made anywhere else (`den_module_entry`, a thread the module started itself).
    package var session: UISessionID?
    /// What the module's manifest asks for (`PermissionGate`); nil for den's own calls (`den
    /// config`, its front-ends), which are never checked.
    package var permissions: ModulePermissions?

    public init(moduleID: String, session: UISessionID? = nil) {
        self.moduleID = moduleID
        self.session = session
    }

    /// A call made as module `moduleID` whose manifest asks for `permissions`: held to them
    /// (an embedder calling services on a module's behalf; docs/PERMISSIONS.md).
    public init(moduleID: String, permissions: ModulePermissions) {
        self.init(moduleID: moduleID, session: nil, permissions: permissions)
    }

    package init(moduleID: String, session: UISessionID?, permissions: ModulePermissions?) {
        self.moduleID = moduleID
        self.session = session
        self.permissions = permissions
    }
}

extension HostService {
    /// Decodes a request document, turning a decoding error into a readable `invalidArgument`.
    package func decode<T: Decodable>(_ type: T.Type, _ data: Data, for operation: String) throws(ServiceFailure) -> T {
        do {
            return try WireFormat.decode(type, from: data)
        } catch {
            throw .invalid("\(operation): malformed request: \(WireFormat.describe(error))")
        }
    }

    /// `decode` for a request document with a hand-written JSON form (`WireDocument`): the same
    /// documents accepted, the same messages for the rest.
    package func decode<T: WireDocument>(_ type: T.Type, _ data: Data, for operation: String) throws(ServiceFailure) -> T {
        do {
            return try WireFormat.decode(type, from: data)
        } catch {
            throw .invalid("\(operation): malformed request: \(WireFormat.describe(error))")
        }
    }

    /// Encodes an answer document with a hand-written JSON form (`WireDocument`).
    package func encode<T: WireDocument>(_ value: T, for operation: String) throws(ServiceFailure) -> Data {
        do {
            return try WireFormat.encode(value)
        } catch {
            throw .init(.internalError, "\(operation): could not encode the answer: \(error)")
        }
    }

    /// Encodes an answer document.
    package func encode<T: Encodable>(_ value: T, for operation: String) throws(ServiceFailure) -> Data {
        do {
            return try WireFormat.encode(value)
        } catch {
            throw .init(.internalError, "\(operation): could not encode the answer: \(error)")
        }
    }
}
