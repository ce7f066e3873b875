import DenLibraryContracts
import DenKit
import FoundationEssentials

/// `plugins.list`: every plugin file the host considered, loaded or failed.
package struct PluginsListService: HostService {
    private let list: @Sendable (PluginSummary.Fields) -> [PluginSummary]

    package init(list: @escaping @Sendable () -> [PluginSummary]) {
        self.list = { _ in list() }
    }

    /// `list` is told the fields asked for, so it need not make the others (it may).
    package init(listing list: @escaping @Sendable (PluginSummary.Fields) -> [PluginSummary]) {
        self.list = list
    }

    package var operations: [String] { ["plugins.list"] }

    package func handle(_ operation: String, request: Data, caller: ServiceCaller) throws(ServiceFailure) -> Data {
        let fields = try fields(in: request, for: operation)
        return try encode(PluginListResponse(plugins: list(fields), fields: fields), for: operation)
    }

    /// The fields a request asks for: `{}` all of them, `{"fields": [names]}` those named (names
    /// a later revision adds are ignored). Keys a later ABI adds are ignored too. JSONDecoder
    /// words the refusal of anything that is not an object.
    private func fields(in request: Data, for operation: String) throws(ServiceFailure) -> PluginSummary.Fields {
        guard case .object(let object) = JSONReader.parse(request) else {
            // JSONReader leaves some valid objects to JSONDecoder (very deep or large ones). An
            // object whose `fields` is wrong is refused in the same words as a small one;
            // anything else in JSONDecoder's.
            if let read = try? WireFormat.decode(PluginListRequest.self, from: request) {
                return read.fields.map(PluginSummary.Fields.init(names:)) ?? .all
            }
            if (try? JSONDecoder().decode(AnyObjectRequest.self, from: request)) != nil { throw Self.badFields(operation) }
            _ = try decode(PluginListRequest.self, request, for: operation)
            return .all
        }
        guard let fields = object["fields"] else { return .all }
        guard let names = try? fields.strings() else { throw Self.badFields(operation) }
        return PluginSummary.Fields(names: names)
    }

    private static func badFields(_ operation: String) -> ServiceFailure {
        .invalid("""
            \(operation): "fields" must be a list of field names, e.g. {"fields": ["id", "version"]}; \
            the names are \(PluginSummary.Field.all.map(\.rawValue).joined(separator: ", ")) (file and status are always answered)
            """)
    }
}

/// Any JSON object, whatever its keys (and nothing else): a request this reader cannot decode
/// as `PluginListRequest` that is still an object has a `fields` that is not a list.
private struct AnyObjectRequest: Decodable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyKey.self)
    }
}
