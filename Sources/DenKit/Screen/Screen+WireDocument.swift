// The hand-written JSON form of a screen (WireDocument): the same keys, defaults and leniency
// as Element+Codable.swift and the Codable conformances in Element.swift, which stay the
// reference. Keys are written in sorted order, as JSONEncoder's `sortedKeys` writes them.

extension Screen: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        self.init(title: try object.string("title"), elements: try object.array("elements").map(Element.init(wire:)))
        v = try object.int("v")
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("elements", each: elements) { $0.write(to: &$1) }
        writer.member("title", title)
        writer.member("v", v)
        writer.endObject()
    }
}

extension Element {
    init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        let type = try object.string("type")
        switch type {
        case "heading": self = .heading(try object.string("text"))
        case "text":
            let style = try object.optionalString("style").map { TextStyle(rawValue: $0) ?? .body } ?? .body
            self = .text(try object.string("text"), style: style)
        case "field":
            self = .field(Field(
                id: try object.string("id"), label: try object.optionalString("label") ?? "",
                value: try object.optionalString("value") ?? "",
                kind: try object.optionalString("kind").map { Field.Kind(rawValue: $0) ?? .text } ?? .text,
                options: try object.optionalStrings("options") ?? [],
                placeholder: try object.optionalString("placeholder"), error: try object.optionalString("error"),
                changes: try object.optionalBool("changes") ?? false, autocomplete: try object.optionalString("autocomplete")))
        case "button":
            let id = try object.string("id")
            self = .button(Button(id: id, label: try object.optionalString("label") ?? id,
                                  role: try object.optionalString("role").map { Button.Role(rawValue: $0) ?? .secondary } ?? .secondary))
        case "link": self = .link(Link(label: try object.string("label"), route: try object.string("route")))
        case "list":
            let items = try (object.optionalArray("items") ?? []).map { (item) throws(JSONMiss) in
                let fields = try item.object()
                return ItemList.Item(title: try fields.string("title"), detail: try fields.optionalString("detail"),
                                     route: try fields.optionalString("route"))
            }
            self = .list(ItemList(title: try object.optionalString("title"), items: items,
                                  emptyText: try object.optionalString("emptyText")))
        case "table":
            self = .table(Table(columns: try object.strings("columns"), rows: try object.array("rows").map { (row) throws(JSONMiss) in try row.strings() }))
        case "banner":
            let kind = try object.optionalString("kind").map { Banner.Kind(rawValue: $0) ?? .info } ?? .info
            self = .banner(Banner(kind, try object.string("text")))
        default: self = .unsupported(type: type)
        }
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        switch self {
        case .heading(let text):
            writer.member("text", text)
            writer.member("type", typeName)
        case .text(let text, let style):
            writer.member("style", style.rawValue)
            writer.member("text", text)
            writer.member("type", typeName)
        case .field(let field):
            writer.member("autocomplete", ifPresent: field.autocomplete)
            if field.changes { writer.member("changes", true) }
            writer.member("error", ifPresent: field.error)
            writer.member("id", field.id)
            writer.member("kind", field.kind.rawValue)
            writer.member("label", field.label)
            writer.member("options", strings: field.options)
            writer.member("placeholder", ifPresent: field.placeholder)
            writer.member("type", typeName)
            writer.member("value", field.value)
        case .button(let button):
            writer.member("id", button.id)
            writer.member("label", button.label)
            writer.member("role", button.role.rawValue)
            writer.member("type", typeName)
        case .link(let link):
            writer.member("label", link.label)
            writer.member("route", link.route)
            writer.member("type", typeName)
        case .list(let list):
            writer.member("emptyText", ifPresent: list.emptyText)
            writer.member("items", each: list.items) { item, writer in
                writer.beginObject()
                writer.member("detail", ifPresent: item.detail)
                writer.member("route", ifPresent: item.route)
                writer.member("title", item.title)
                writer.endObject()
            }
            writer.member("title", ifPresent: list.title)
            writer.member("type", typeName)
        case .table(let table):
            writer.member("columns", strings: table.columns)
            writer.member("rows", each: table.rows) { $1.strings($0) }
            writer.member("type", typeName)
        case .banner(let banner):
            writer.member("kind", banner.kind.rawValue)
            writer.member("text", banner.text)
            writer.member("type", typeName)
        case .unsupported:
            writer.member("type", typeName)
        }
        writer.endObject()
    }
}
