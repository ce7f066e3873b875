/// What a module's View describes: a title and a small tree of elements. Front-ends draw it
/// (as HTML or as terminal text) and escape every string, so a module cannot inject markup.
public struct Screen: Codable, Sendable, Equatable {
    /// Version of the screen document; front-ends refuse documents newer than they know.
    public static let currentVersion = 1

    public var v: Int
    public var title: String
    public var elements: [Element]

    public init(title: String, elements: [Element]) {
        self.v = Screen.currentVersion
        self.title = title
        self.elements = elements
    }

    /// Every field on the screen, for front-ends that collect form values.
    public var fields: [Field] {
        elements.compactMap { if case .field(let field) = $0 { field } else { nil } }
    }
}
