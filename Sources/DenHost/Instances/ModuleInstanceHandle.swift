import CDenABI
import DenKit
import Foundation

/// The host's side of one live module instance. Calls into it are serialised (den_module.h);
/// the instance is destroyed, freeing its whole VIPER stack, when the handle goes away.
public final class ModuleInstanceHandle: @unchecked Sendable {
    public let moduleID: String
    private let pointer: UnsafeMutableRawPointer
    private let api: UnsafePointer<den_instance_api>
    private let lock = NSLock()

    /// Calls a route's builder with the matched parameters.
    static func build(_ target: RouteTarget, request: BuildRequest) throws(ModuleCallError) -> ModuleInstanceHandle {
        func fail(_ status: Int32, _ message: String) -> ModuleCallError {
            ModuleCallError(moduleID: target.moduleID, status: status, message: message)
        }
        let body: Data
        do { body = try WireFormat.encode(request) } catch { throw fail(Int32(DEN_ERR_INTERNAL.rawValue), "\(error)") }
        var instance: UnsafeMutableRawPointer?
        var api: UnsafePointer<den_instance_api>?
        var error = den_owned(ptr: nil, len: 0, release: nil)
        // den_module.h: a builder is never called concurrently for the same builder_ctx.
        let status = target.gate.withLock {
            OwnedBuffer.borrow(body) { params in
                target.route.build(target.route.context, target.host, params, &instance, &api, &error)
            }
        }
        let message = String(decoding: OwnedBuffer.take(&error), as: UTF8.self)
        guard status == DEN_OK.rawValue else { throw fail(status, message) }
        guard let instance, let api else {
            throw fail(Int32(DEN_ERR_INTERNAL.rawValue), "its builder reported success but returned no instance")
        }
        // Read no field the plugin's table does not have: a smaller table can only be leaked.
        guard api.pointee.struct_size >= UInt32(MemoryLayout<den_instance_api>.size) else {
            throw fail(Int32(DEN_ERR_VERSION.rawValue), "its instance API table is older than this host's (rebuild it against this den_module.h)")
        }
        guard api.pointee.handle != nil, api.pointee.destroy != nil else {
            api.pointee.destroy?(instance)
            throw fail(Int32(DEN_ERR_VERSION.rawValue), "its instance API table has no handle or destroy function")
        }
        return ModuleInstanceHandle(moduleID: target.moduleID, pointer: instance, api: api)
    }

    private init(moduleID: String, pointer: UnsafeMutableRawPointer, api: UnsafePointer<den_instance_api>) {
        self.moduleID = moduleID
        self.pointer = pointer
        self.api = api
    }

    deinit {
        api.pointee.destroy?(pointer)
    }

    public func handle(_ event: ModuleEvent) throws(ModuleCallError) -> ModuleReply {
        let body: Data
        do { body = try WireFormat.encode(event) } catch {
            throw ModuleCallError(moduleID: moduleID, status: Int32(DEN_ERR_INTERNAL.rawValue), message: "\(error)")
        }
        var reply = den_owned(ptr: nil, len: 0, release: nil)
        let status = lock.withLock {
            OwnedBuffer.borrow(body) { api.pointee.handle!(pointer, $0, &reply) }
        }
        let answer = OwnedBuffer.take(&reply)
        guard status == DEN_OK.rawValue else {
            throw ModuleCallError(moduleID: moduleID, status: status, message: String(decoding: answer, as: UTF8.self))
        }
        let decoded: ModuleReply
        do {
            decoded = try WireFormat.decode(ModuleReply.self, from: answer)
        } catch {
            throw ModuleCallError(moduleID: moduleID, status: Int32(DEN_ERR_INTERNAL.rawValue),
                                  message: "sent a reply this host cannot read (\(WireFormat.describe(error)))")
        }
        guard decoded.screen.v <= Screen.currentVersion else {
            throw ModuleCallError(moduleID: moduleID, status: Int32(DEN_ERR_VERSION.rawValue),
                                  message: "sent screen version \(decoded.screen.v); this host draws up to version \(Screen.currentVersion)")
        }
        return decoded
    }

    /// The instance's state for a hot swap, or nil when it keeps none.
    public func snapshot() throws(ModuleCallError) -> Data? {
        guard let snapshot = api.pointee.snapshot else { return nil }
        var state = den_owned(ptr: nil, len: 0, release: nil)
        let status = lock.withLock { snapshot(pointer, &state) }
        let bytes = OwnedBuffer.take(&state)
        if status == DEN_ERR_UNSUPPORTED.rawValue { return nil }
        guard status == DEN_OK.rawValue else {
            throw ModuleCallError(moduleID: moduleID, status: status, message: String(decoding: bytes, as: UTF8.self))
        }
        return bytes
    }

    /// Restores state from `snapshot()`; false when the instance could not use it.
    @discardableResult
    public func restore(_ state: Data) -> Bool {
        guard let restore = api.pointee.restore else { return false }
        return lock.withLock { OwnedBuffer.borrow(state) { restore(pointer, $0) } } == DEN_OK.rawValue
    }
}
