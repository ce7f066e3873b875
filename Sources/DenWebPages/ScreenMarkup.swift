import DenKit
import Plot

/// The HTML of a Screen's elements, in reading order, inside the page's one form. The twin of
/// DenTerminal's `TextRenderer`: every element type has an HTML form, and an element this
/// version does not know leaves a visible note while the rest of the screen draws.
struct ScreenMarkup {
    private var fieldIDs = FieldDOMIDs()

    mutating func nodes(for elements: [DenKit.Element]) -> [Node<HTML.FormContext>] {
        var nodes: [Node<HTML.FormContext>] = []
        // Buttons next to each other share one row.
        var buttons: [DenKit.Button] = []
        for element in elements {
            if case .button(let button) = element {
                buttons.append(button)
                continue
            }
            if !buttons.isEmpty {
                nodes.append(Self.buttonRow(buttons))
                buttons = []
            }
            nodes.append(node(for: element))
        }
        if !buttons.isEmpty { nodes.append(Self.buttonRow(buttons)) }
        return nodes
    }

    private mutating func node(for element: DenKit.Element) -> Node<HTML.FormContext> {
        switch element {
        case .heading(let text):
            // The screen title is the page's <h1>; a Screen heading is one level below.
            return .h2(.escapedText(text))
        case .text(let text, let style):
            return Self.text(text, style: style)
        case .field(let field):
            return FieldMarkup.node(field, ids: fieldIDs.next(for: field.id))
        case .button(let button):
            return Self.buttonRow([button])
        case .link(let link):
            return .p(.classes("den-link"), Self.routeLink(link.route, label: link.label.isEmpty ? link.route : link.label))
        case .list(let list):
            return Self.list(list)
        case .table(let table):
            return Self.table(table)
        case .banner(let banner):
            return BannerMarkup.node(banner.kind, banner.text)
        case .unsupported(let type):
            return .p(.classes("den-unsupported"),
                      .escapedText("(this screen has a '\(type)' element this page cannot draw)"))
        }
    }

    private static func text(_ text: String, style: TextStyle) -> Node<HTML.FormContext> {
        switch style {
        case .body: .p(.classes("den-text"), .escapedText(text))
        case .emphasis: .p(.classes("den-text", "den-emphasis"), .em(.escapedText(text)))
        case .caption: .p(.classes("den-text", "den-caption"), .small(.escapedText(text)))
        }
    }

    /// Each button submits the one form with its id as `_action`, carrying every field.
    private static func buttonRow(_ buttons: [DenKit.Button]) -> Node<HTML.FormContext> {
        .div(.classes("den-actions"), .group(buttons.map { button in
            .button(
                .escaped("type", "submit"),
                .escaped("name", FormNames.action),
                .escaped("value", button.id),
                .classes("den-button", "den-\(button.role.rawValue)"),
                .escapedText(button.label.isEmpty ? button.id : button.label)
            )
        }))
    }

    static func routeLink<Context: HTML.BodyContext>(_ route: String, label: String) -> Node<Context> {
        .a(.escaped("href", RouteHref.href(for: route)), .escapedText(label))
    }

    private static func list(_ list: ItemList) -> Node<HTML.FormContext> {
        .div(
            .classes("den-list"),
            .unwrap(list.title) { .h3(.escapedText($0)) },
            list.items.isEmpty
                ? .unwrap(list.emptyText) { .p(.classes("den-empty"), .escapedText($0)) }
                : .ul(.group(list.items.map(item)))
        )
    }

    /// An item with a route is one link: its title and detail together.
    private static func item(_ item: ItemList.Item) -> Node<HTML.ListContext> {
        if let route = item.route {
            return .li(.a(.escaped("href", RouteHref.href(for: route)),
                          .group(itemText(item, fallbackTitle: route))))
        }
        return .li(.group(itemText(item, fallbackTitle: "")))
    }

    private static func itemText<Context: HTML.BodyContext>(_ item: ItemList.Item, fallbackTitle: String) -> [Node<Context>] {
        var nodes: [Node<Context>] = [
            .span(.classes("den-item-title"), .escapedText(item.title.isEmpty ? fallbackTitle : item.title)),
        ]
        if let detail = item.detail, !detail.isEmpty {
            nodes.append(.span(.classes("den-item-detail"), .escapedText(detail)))
        }
        return nodes
    }

    /// Ragged rows are padded to the widest row, as the terminal does. Each cell also carries its
    /// column name (`data-label`), which the stylesheet shows beside the cell on narrow screens,
    /// where each row becomes a block of "column: value" lines.
    private static func table(_ table: DenKit.Table) -> Node<HTML.FormContext> {
        let count = ([table.columns] + table.rows).map(\.count).max() ?? 0
        func cell(_ row: [String], _ column: Int) -> String { column < row.count ? row[column] : "" }
        return .div(.classes("den-table"), .table(
            .thead(.tr(.group((0..<count).map { column in
                .th(.escaped("scope", "col"), .escapedText(cell(table.columns, column)))
            }))),
            .tbody(.group(table.rows.map { row in
                .tr(.group((0..<count).map { column in
                    let name = cell(table.columns, column)
                    return .td(name.isEmpty ? .empty : .escaped("data-label", HTMLEscaping.visible(name)),
                               .escapedText(cell(row, column)))
                }))
            }))
        ))
    }
}
