/// One element of a `Screen`. Encoded as a JSON object with a `type` key; an element type this
/// version does not know decodes as `.unsupported` so an older front-end still draws the rest.
public enum Element: Sendable, Equatable {
    case heading(String)
    case text(String, style: TextStyle = .body)
    case field(Field)
    case button(Button)
    case link(Link)
    case list(ItemList)
    case table(Table)
    case banner(Banner)
    case unsupported(type: String)
}

public enum TextStyle: String, Codable, Sendable {
    case body, caption, emphasis

    /// An unknown style (a newer module) draws as body text rather than failing the screen.
    public init(from decoder: any Decoder) throws {
        self = TextStyle(rawValue: try decoder.singleValueContainer().decode(String.self)) ?? .body
    }
}

/// An input. `id` is the key of its value in an action event's `fields`.
public struct Field: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        /// `date` is a day as YYYY-MM-DD (a browser offers its date picker); an older host
        /// edits it as text.
        case text, number, password, choice, date

        /// An unknown kind is edited as text.
        public init(from decoder: any Decoder) throws {
            self = Kind(rawValue: try decoder.singleValueContainer().decode(String.self)) ?? .text
        }
    }
    public var id: String
    public var label: String
    public var value: String
    public var kind: Kind
    /// The allowed values of a `.choice` field, in display order.
    public var options: [String]
    public var placeholder: String?
    /// A message about the current value ("only digits and one decimal separator").
    public var error: String?
    /// Ask the host for a `change` event (`FieldChange`) whenever the user changes the value,
    /// e.g. to recompute as the user types. Encoded only when true.
    public var changes: Bool
    /// What the value is, in the words of HTML's `autocomplete` ("username", "current-password",
    /// "new-password", "one-time-code"), so a browser or a password manager fills it in right.
    /// Encoded only when set; a front-end without such help ignores it.
    public var autocomplete: String?

    public init(id: String, label: String, value: String = "", kind: Kind = .text,
                options: [String] = [], placeholder: String? = nil, error: String? = nil, changes: Bool = false,
                autocomplete: String? = nil) {
        self.autocomplete = autocomplete
        self.id = id
        self.label = label
        self.value = value
        self.kind = kind
        self.options = options
        self.placeholder = placeholder
        self.error = error
        self.changes = changes
    }
}

/// An action the user can trigger; the module gets an `action` event with this `id`.
public struct Button: Codable, Sendable, Equatable {
    public enum Role: String, Codable, Sendable {
        case primary, secondary, destructive

        public init(from decoder: any Decoder) throws {
            self = Role(rawValue: try decoder.singleValueContainer().decode(String.self)) ?? .secondary
        }
    }
    public var id: String
    public var label: String
    public var role: Role

    public init(id: String, label: String, role: Role = .secondary) {
        self.id = id
        self.label = label
        self.role = role
    }
}

/// A link to a route; the front-end navigates without asking the module.
public struct Link: Codable, Sendable, Equatable {
    public var label: String
    public var route: String

    public init(label: String, route: String) {
        self.label = label
        self.route = route
    }
}

public struct ItemList: Codable, Sendable, Equatable {
    public struct Item: Codable, Sendable, Equatable {
        public var title: String
        public var detail: String?
        /// When set, the item is a link to this route.
        public var route: String?

        public init(title: String, detail: String? = nil, route: String? = nil) {
            self.title = title
            self.detail = detail
            self.route = route
        }
    }
    public var title: String?
    public var items: [Item]
    /// Shown when `items` is empty.
    public var emptyText: String?

    public init(title: String? = nil, items: [Item], emptyText: String? = nil) {
        self.title = title
        self.items = items
        self.emptyText = emptyText
    }
}

public struct Table: Codable, Sendable, Equatable {
    public var columns: [String]
    public var rows: [[String]]

    public init(columns: [String], rows: [[String]]) {
        self.columns = columns
        self.rows = rows
    }
}

public struct Banner: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case info, success, warning, error

        public init(from decoder: any Decoder) throws {
            self = Kind(rawValue: try decoder.singleValueContainer().decode(String.self)) ?? .info
        }
    }
    public var kind: Kind
    public var text: String

    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }
}

// Lenient decoding: a module written in C (or an older DenKit) may leave optional keys out.
extension Field {
    private enum CodingKeys: String, CodingKey { case id, label, value, kind, options, placeholder, error, changes, autocomplete }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try container.decode(String.self, forKey: .id),
                  label: try container.decodeIfPresent(String.self, forKey: .label) ?? "",
                  value: try container.decodeIfPresent(String.self, forKey: .value) ?? "",
                  kind: try container.decodeIfPresent(Kind.self, forKey: .kind) ?? .text,
                  options: try container.decodeIfPresent([String].self, forKey: .options) ?? [],
                  placeholder: try container.decodeIfPresent(String.self, forKey: .placeholder),
                  error: try container.decodeIfPresent(String.self, forKey: .error),
                  changes: try container.decodeIfPresent(Bool.self, forKey: .changes) ?? false,
                  autocomplete: try container.decodeIfPresent(String.self, forKey: .autocomplete))
    }

    /// `changes` is written only when true, so screens without it read as before.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(label, forKey: .label)
        try container.encode(value, forKey: .value)
        try container.encode(kind, forKey: .kind)
        try container.encode(options, forKey: .options)
        try container.encodeIfPresent(placeholder, forKey: .placeholder)
        try container.encodeIfPresent(error, forKey: .error)
        if changes { try container.encode(true, forKey: .changes) }
        try container.encodeIfPresent(autocomplete, forKey: .autocomplete)
    }
}

extension Button {
    private enum CodingKeys: String, CodingKey { case id, label, role }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        self.init(id: id, label: try container.decodeIfPresent(String.self, forKey: .label) ?? id,
                  role: try container.decodeIfPresent(Role.self, forKey: .role) ?? .secondary)
    }
}

extension ItemList {
    private enum CodingKeys: String, CodingKey { case title, items, emptyText }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(title: try container.decodeIfPresent(String.self, forKey: .title),
                  items: try container.decodeIfPresent([Item].self, forKey: .items) ?? [],
                  emptyText: try container.decodeIfPresent(String.self, forKey: .emptyText))
    }
}

extension Banner {
    private enum CodingKeys: String, CodingKey { case kind, text }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decodeIfPresent(Kind.self, forKey: .kind) ?? .info,
                  try container.decode(String.self, forKey: .text))
    }
}
