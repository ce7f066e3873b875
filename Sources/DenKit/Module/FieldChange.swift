/// The user changed the value of a field whose element asked for it (`Field.changes`):
/// `{"v": 1, "type": "change", "field": "amount", "fields": {...}}` (docs/ABI.md, "Events").
/// A module that sets `changes` gets one per edit and replies with a new screen, as for an
/// action; a module that never sets it never sees one.
///
/// A type of its own rather than a third `ModuleEvent` case: adding a case would break every
/// module's exhaustive `switch event` when it is rebuilt against this DenKit. Views receive it
/// through `ModuleView.handleChange`, which does nothing unless a view implements it.
public struct FieldChange: Sendable, Equatable {
    /// The `id` of the field that changed.
    public var field: String
    /// Every field's current value, by id, the changed one included.
    public var fields: [String: String]

    public init(field: String, fields: [String: String]) {
        self.field = field
        self.fields = fields
    }
}

extension FieldChange: Codable {
    private enum CodingKeys: String, CodingKey { case v, type, field, fields }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try container.checkEventVersion(forKey: .v)
        guard try container.decode(String.self, forKey: .type) == "change" else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "not a change event")
        }
        field = try container.decode(String.self, forKey: .field)
        fields = try container.decodeIfPresent([String: String].self, forKey: .fields) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(WireFormat.version, forKey: .v)
        try container.encode("change", forKey: .type)
        try container.encode(field, forKey: .field)
        try container.encode(fields, forKey: .fields)
    }
}

/// Any event document the host sends, told apart by its `type`.
enum IncomingEvent: Decodable, Sendable {
    case event(ModuleEvent)
    case change(FieldChange)

    private enum CodingKeys: String, CodingKey { case type }

    init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .type)
        self = type == "change" ? .change(try FieldChange(from: decoder)) : .event(try ModuleEvent(from: decoder))
    }
}
