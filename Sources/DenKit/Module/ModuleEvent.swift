/// What the host tells a module instance: the screen appeared, or the user triggered an action
/// with the current values of the screen's fields.
public enum ModuleEvent: Sendable, Equatable {
    case appear
    case action(id: String, fields: [String: String])
}

extension ModuleEvent: Codable {
    private enum CodingKeys: String, CodingKey { case v, type, id, fields }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try container.checkEventVersion(forKey: .v)
        switch try container.decode(String.self, forKey: .type) {
        case "appear": self = .appear
        case "action":
            self = .action(id: try container.decode(String.self, forKey: .id),
                           fields: try container.decodeIfPresent([String: String].self, forKey: .fields) ?? [:])
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown event type '\(other)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(WireFormat.version, forKey: .v)
        switch self {
        case .appear:
            try container.encode("appear", forKey: .type)
        case .action(let id, let fields):
            try container.encode("action", forKey: .type)
            try container.encode(id, forKey: .id)
            try container.encode(fields, forKey: .fields)
        }
    }
}
