import DenKit
import Foundation

/// `plugins.list`: every plugin file the host considered, loaded or failed.
public struct PluginsListService: HostService {
    private let list: @Sendable () -> [PluginSummary]

    public init(list: @escaping @Sendable () -> [PluginSummary]) {
        self.list = list
    }

    public var operations: [String] { ["plugins.list"] }

    public func handle(_ operation: String, request: Data, caller: ServiceCaller) throws(ServiceFailure) -> Data {
        try encode(PluginListResponse(plugins: list()), for: operation)
    }
}
