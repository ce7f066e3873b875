import CDenABI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `self` pointer of a live instance handed to the host.
final class InstanceBox {
    let instance: any ModuleInstance

    init(_ instance: any ModuleInstance) {
        self.instance = instance
    }

    static func from(_ pointer: UnsafeMutableRawPointer) -> InstanceBox {
        Unmanaged<InstanceBox>.fromOpaque(pointer).takeUnretainedValue()
    }
}

/// The instance functions shared by every Swift module instance; lives for the process lifetime.
nonisolated(unsafe) let instanceAPI: UnsafePointer<den_instance_api> = {
    let api = UnsafeMutablePointer<den_instance_api>.allocate(capacity: 1)
    api.initialize(to: den_instance_api(
        struct_size: UInt32(MemoryLayout<den_instance_api>.size),
        reserved: 0,
        handle: { pointer, event, reply in
            guard let pointer, let reply else { return DEN_ERR_INVALID_ARGUMENT.rawValue32 }
            do {
                let instance = InstanceBox.from(pointer).instance
                let answer = switch try IncomingEvent.read(OwnedBuffer.copy(event)) {
                case .event(let event): try instance.handle(event)
                case .change(let change): try instance.handleChange(change)
                }
                reply.pointee = OwnedBuffer.make(try WireFormat.encode(answer))
                return DEN_OK.rawValue32
            } catch {
                reply.pointee = OwnedBuffer.make(message(for: error))
                return status(for: error).rawValue32
            }
        },
        snapshot: { pointer, state in
            guard let pointer, let state else { return DEN_ERR_INVALID_ARGUMENT.rawValue32 }
            do {
                state.pointee = OwnedBuffer.make(try InstanceBox.from(pointer).instance.snapshot())
                return DEN_OK.rawValue32
            } catch {
                state.pointee = OwnedBuffer.make(message(for: error))
                return status(for: error).rawValue32
            }
        },
        restore: { pointer, state in
            guard let pointer else { return DEN_ERR_INVALID_ARGUMENT.rawValue32 }
            do {
                try InstanceBox.from(pointer).instance.restore(OwnedBuffer.copy(state))
                return DEN_OK.rawValue32
            } catch ModuleError.unsupported {
                return DEN_ERR_UNSUPPORTED.rawValue32
            } catch {
                return DEN_ERR_VERSION.rawValue32
            }
        },
        destroy: { pointer in
            guard let pointer else { return }
            Unmanaged<InstanceBox>.fromOpaque(pointer).release()
        },
        // A Swift instance cannot tell cheaply whether its snapshot changed: the host asks each time.
        state_version: nil
    ))
    return UnsafePointer(api)
}()
