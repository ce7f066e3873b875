import DenKit
import FoundationEssentials

/// `plugins.list`: every plugin file the host considered, loaded or failed.
public struct PluginsListService: HostService {
    private let list: @Sendable (PluginSummary.Fields) -> [PluginSummary]

    public init(list: @escaping @Sendable () -> [PluginSummary]) {
        self.list = { _ in list() }
    }

    /// `list` is told the fields asked for, so it need not make the others (it may).
    package init(listing list: @escaping @Sendable (PluginSummary.Fields) -> [PluginSummary]) {
        self.list = list
    }

    public var operations: [String] { ["plugins.list"] }

    public func handle(_ operation: String, request: Data, caller: ServiceCaller) throws(ServiceFailure) -> Data {
        let fields = try fields(in: request, for: operation)
        return try encode(PluginListResponse(plugins: list(fields), fields: fields), for: operation)
    }

    /// The fields a request asks for: `{}` all of them, `{"fields": [names]}` those named (names
    /// a later revision adds are ignored). Keys a later ABI adds are ignored too. JSONDecoder
    /// words the refusal of anything that is not an object.
    private func fields(in request: Data, for operation: String) throws(ServiceFailure) -> PluginSummary.Fields {
        guard case .object(let object) = JSONReader.parse(request) else {
            // JSONReader leaves some valid objects to JSONDecoder (very deep or large ones); it
            // refuses anything else, and a `fields` that is not a list, in its own words.
            return try decode(PluginListRequest.self, request, for: operation).fields.map(PluginSummary.Fields.init(names:)) ?? .all
        }
        guard let fields = object["fields"] else { return .all }
        guard let names = try? fields.strings() else {
            throw .invalid("""
                \(operation): "fields" must be a list of field names, e.g. {"fields": ["id", "version"]}; \
                the names are \(PluginSummary.Field.all.map(\.rawValue).joined(separator: ", ")) (file and status are always answered)
                """)
        }
        return PluginSummary.Fields(names: names)
    }
}
