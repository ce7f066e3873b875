/// The wire form of `Element`: a flat JSON object tagged by `type`.
extension Element: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, text, style
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "heading": self = .heading(try container.decode(String.self, forKey: .text))
        case "text":
            let style = try container.decodeIfPresent(TextStyle.self, forKey: .style) ?? .body
            self = .text(try container.decode(String.self, forKey: .text), style: style)
        case "field": self = .field(try Field(from: decoder))
        case "button": self = .button(try Button(from: decoder))
        case "link": self = .link(try Link(from: decoder))
        case "list": self = .list(try ItemList(from: decoder))
        case "table": self = .table(try Table(from: decoder))
        case "banner": self = .banner(try Banner(from: decoder))
        default: self = .unsupported(type: type)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(typeName, forKey: .type)
        switch self {
        case .heading(let text): try container.encode(text, forKey: .text)
        case .text(let text, let style):
            try container.encode(text, forKey: .text)
            try container.encode(style, forKey: .style)
        case .field(let field): try field.encode(to: encoder)
        case .button(let button): try button.encode(to: encoder)
        case .link(let link): try link.encode(to: encoder)
        case .list(let list): try list.encode(to: encoder)
        case .table(let table): try table.encode(to: encoder)
        case .banner(let banner): try banner.encode(to: encoder)
        case .unsupported: break
        }
    }

    public var typeName: String {
        switch self {
        case .heading: "heading"
        case .text: "text"
        case .field: "field"
        case .button: "button"
        case .link: "link"
        case .list: "list"
        case .table: "table"
        case .banner: "banner"
        case .unsupported(let type): type
        }
    }
}
