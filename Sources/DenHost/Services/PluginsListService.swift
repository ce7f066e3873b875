import DenKit
import FoundationEssentials

/// `plugins.list`: every plugin file the host considered, loaded or failed.
public struct PluginsListService: HostService {
    private let list: @Sendable () -> [PluginSummary]

    public init(list: @escaping @Sendable () -> [PluginSummary]) {
        self.list = list
    }

    public var operations: [String] { ["plugins.list"] }

    public func handle(_ operation: String, request: Data, caller: ServiceCaller) throws(ServiceFailure) -> Data {
        // `{}`: keys a later ABI adds are ignored. JSONDecoder words the refusal of anything else.
        if case .object = JSONReader.parse(request) {} else { _ = try decode(EmptyRequest.self, request, for: operation) }
        return try encode(PluginListResponse(plugins: list()), for: operation)
    }
}

/// A request document with no keys of its own: any JSON object.
private struct EmptyRequest: Decodable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyKey.self) // an object, whatever its keys
    }
}
