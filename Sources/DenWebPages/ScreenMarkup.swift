import DenKit

/// The HTML of a Screen's elements, in reading order, inside the page's one form. The twin of
/// DenTerminal's `TextRenderer`: every element type has an HTML form, and an element this
/// version does not know leaves a visible note while the rest of the screen draws.
struct ScreenMarkup {
    private var fieldIDs = FieldDOMIDs()

    mutating func write(_ elements: [DenKit.Element], into page: inout HTMLWriter) {
        // Buttons next to each other share one row.
        var buttons: [DenKit.Button] = []
        for element in elements {
            if case .button(let button) = element {
                buttons.append(button)
                continue
            }
            if !buttons.isEmpty {
                Self.buttonRow(buttons, into: &page)
                buttons = []
            }
            write(element, into: &page)
        }
        if !buttons.isEmpty { Self.buttonRow(buttons, into: &page) }
    }

    private mutating func write(_ element: DenKit.Element, into page: inout HTMLWriter) {
        switch element {
        case .heading(let text):
            // The screen title is the page's <h1>; a Screen heading is one level below.
            page.element(.h2, text: text)
        case .text(let text, let style):
            Self.text(text, style: style, into: &page)
        case .field(let field):
            FieldMarkup.write(field, ids: fieldIDs.next(for: field.id), into: &page)
        case .button(let button):
            Self.buttonRow([button], into: &page)
        case .link(let link):
            page.element(.p, .classes("den-link")) { page in
                Self.routeLink(link.route, label: link.label.isEmpty ? link.route : link.label, into: &page)
            }
        case .list(let list):
            Self.list(list, into: &page)
        case .table(let table):
            Self.table(table, into: &page)
        case .banner(let banner):
            BannerMarkup.write(banner.kind, banner.text, into: &page)
        case .unsupported(let type):
            page.element(.p, .classes("den-unsupported"), text: "(this screen has a '\(type)' element this page cannot draw)")
        }
    }

    private static func text(_ text: String, style: TextStyle, into page: inout HTMLWriter) {
        switch style {
        case .body: page.element(.p, .classes("den-text"), text: text)
        case .emphasis: page.element(.p, .classes("den-text den-emphasis")) { $0.element(.em, text: text) }
        case .caption: page.element(.p, .classes("den-text den-caption")) { $0.element(.small, text: text) }
        }
    }

    /// Each button submits the one form with its id as `_action`, carrying every field.
    private static func buttonRow(_ buttons: [DenKit.Button], into page: inout HTMLWriter) {
        page.element(.div, .classes("den-actions")) { page in
            for button in buttons {
                page.element(.button, HTMLAttribute(.type, "submit"), HTMLAttribute(.name, FormNames.action),
                             HTMLAttribute(.value, button.id), .classes("den-button den-\(button.role.rawValue)"),
                             text: button.label.isEmpty ? button.id : button.label)
            }
        }
    }

    static func routeLink(_ route: String, label: String, into page: inout HTMLWriter) {
        page.element(.a, HTMLAttribute(.href, RouteHref.href(for: route)), text: label)
    }

    private static func list(_ list: ItemList, into page: inout HTMLWriter) {
        page.element(.div, .classes("den-list")) { page in
            if let title = list.title { page.element(.h3, text: title) }
            if list.items.isEmpty {
                if let empty = list.emptyText { page.element(.p, .classes("den-empty"), text: empty) }
            } else {
                page.element(.ul) { page in
                    for item in list.items { Self.item(item, into: &page) }
                }
            }
        }
    }

    /// An item with a route is one link: its title and detail together.
    private static func item(_ item: ItemList.Item, into page: inout HTMLWriter) {
        page.element(.li) { page in
            if let route = item.route {
                page.element(.a, HTMLAttribute(.href, RouteHref.href(for: route))) { itemText(item, fallbackTitle: route, into: &$0) }
            } else {
                itemText(item, fallbackTitle: "", into: &page)
            }
        }
    }

    private static func itemText(_ item: ItemList.Item, fallbackTitle: String, into page: inout HTMLWriter) {
        page.element(.span, .classes("den-item-title"), text: item.title.isEmpty ? fallbackTitle : item.title)
        if let detail = item.detail, !detail.isEmpty {
            page.element(.span, .classes("den-item-detail"), text: detail)
        }
    }

    /// Ragged rows are padded to the widest row, as the terminal does. Each cell also carries its
    /// column name (`data-label`), which the stylesheet shows beside the cell on narrow screens,
    /// where each row becomes a block of "column: value" lines.
    private static func table(_ table: DenKit.Table, into page: inout HTMLWriter) {
        let count = ([table.columns] + table.rows).map(\.count).max() ?? 0
        func cell(_ row: [String], _ column: Int) -> String { column < row.count ? row[column] : "" }
        page.element(.div, .classes("den-table")) { page in
            page.element(.table) { page in
                page.element(.thead) { page in
                    page.element(.tr) { page in
                        for column in 0..<count {
                            page.element(.th, HTMLAttribute(.scope, "col"), text: cell(table.columns, column))
                        }
                    }
                }
                page.element(.tbody) { page in
                    for row in table.rows {
                        page.element(.tr) { page in
                            for column in 0..<count {
                                let name = cell(table.columns, column)
                                let label = name.isEmpty ? [] : [HTMLAttribute(.dataLabel, HTMLEscaping.visible(name))]
                                page.element(.td, label) { $0.text(cell(row, column)) }
                            }
                        }
                    }
                }
            }
        }
    }
}
