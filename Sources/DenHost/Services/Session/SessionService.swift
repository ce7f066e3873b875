import DenLibraryContracts
import DenKit
import FoundationEssentials

/// Host service `session.*`: values of the calling UI session (see `SessionStore`). The session
/// is the one whose builder or `handle` call is running (`CallContext`); a call from elsewhere
/// is refused with a message that says so.
package struct SessionService: HostService {
    package let store: SessionStore

    package var operations: [String] {
        [SessionGetRequest.operation, SessionSetRequest.operation, SessionDeleteRequest.operation]
    }

    package init(store: SessionStore) {
        self.store = store
    }

    package func handle(_ operation: String, request: Data, caller: ServiceCaller) throws(ServiceFailure) -> Data {
        switch operation {
        case SessionGetRequest.operation:
            let request = try decode(SessionGetRequest.self, request, for: operation)
            try Self.check(key: request.key, operation)
            let session = try Self.session(of: caller, operation)
            if request.key != SessionLimits.userKey { try store.checkValues(of: session) }
            let value = request.key == SessionLimits.userKey
                ? store.user(of: session) : store.value(request.key, module: caller.moduleID, session: session)
            return try encode(SessionGetAnswer(value: value), for: operation)

        case SessionSetRequest.operation:
            let request = try decode(SessionSetRequest.self, request, for: operation)
            try Self.check(key: request.key, operation, writing: true)
            if request.value.utf8.count > SessionLimits.maxValueBytes {
                throw .invalid("\(operation): the value is \(request.value.utf8.count) bytes; session values are at most \(SessionLimits.maxValueBytes) bytes — keep larger data in storage")
            }
            let session = try Self.session(of: caller, operation)
            try store.checkValues(of: session)
            store.set(request.value, forKey: request.key, module: caller.moduleID, session: session)
            return try encode(Empty(), for: operation)

        case SessionDeleteRequest.operation:
            let request = try decode(SessionDeleteRequest.self, request, for: operation)
            try Self.check(key: request.key, operation, writing: true)
            let session = try Self.session(of: caller, operation)
            try store.checkValues(of: session)
            return try encode(SessionDeleteAnswer(deleted: store.delete(request.key, module: caller.moduleID, session: session)), for: operation)

        default:
            throw ServiceFailure(.notFound, "unknown operation '\(operation)'; the session service answers \(operations.joined(separator: ", "))")
        }
    }

    /// The caller's UI session, or the error that explains where session calls work.
    static func session(of caller: ServiceCaller, _ operation: String) throws(ServiceFailure) -> UISessionID {
        guard let session = caller.session else {
            throw .invalid("\(operation): this call was not made from a builder or handle call, so it belongs to no UI session; call session and auth services from inside a builder or handle, on the thread the host called you on")
        }
        return session
    }

    private static func check(key: String, _ operation: String, writing: Bool = false) throws(ServiceFailure) {
        if key.isEmpty || key.utf8.count > SessionLimits.maxKeyBytes || key.utf8.contains(0) {
            throw .invalid("\(operation): a session key is 1 to \(SessionLimits.maxKeyBytes) bytes of UTF-8 without NUL")
        }
        if writing, key == SessionLimits.userKey {
            throw .invalid("\(operation): '\(SessionLimits.userKey)' is the logged-in user, set by auth.login and cleared by auth.logout; use another key for your own values")
        }
    }
}
