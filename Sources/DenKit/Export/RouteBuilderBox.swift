import CDenABI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `builder_ctx` of one route: its Swift builder and the module's host services.
final class RouteBuilderBox {
    let route: RouteDefinition
    let host: HostServices

    init(route: RouteDefinition, host: HostServices) {
        self.route = route
        self.host = host
    }
}

/// The one C builder function every Swift route uses; `builder_ctx` says which route it is.
let routeBuilderTrampoline: den_builder_fn = { context, _, params, selfOut, apiOut, errorOut in
    guard let context, let selfOut, let apiOut else { return DEN_ERR_INVALID_ARGUMENT.rawValue32 }
    let box = Unmanaged<RouteBuilderBox>.fromOpaque(context).takeUnretainedValue()
    do {
        let request = try WireFormat.decode(BuildRequest.self, from: OwnedBuffer.copy(params))
        let instance = try box.route.build(BuildContext(
            route: request.route, pattern: request.pattern, parameters: request.parameters,
            query: request.query, queryValues: request.queryValues, host: box.host))
        selfOut.pointee = Unmanaged.passRetained(InstanceBox(instance)).toOpaque()
        apiOut.pointee = instanceAPI
        return DEN_OK.rawValue32
    } catch {
        errorOut?.pointee = OwnedBuffer.make(message(for: error))
        return status(for: error).rawValue32
    }
}
