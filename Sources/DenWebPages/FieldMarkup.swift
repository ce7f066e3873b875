import DenKit
import Plot

/// One Screen field: a visible `<label for>`, its control, and its error message tied to the
/// control with `aria-describedby` / `aria-invalid`.
///
/// - `number` is a text input with `inputmode="decimal"`, not `type="number"`: the module
///   validates the text itself ("12,5" must reach it as typed), and den.js needs the caret
///   position, which number inputs do not expose.
/// - `password` never carries a value, whatever the Screen says.
/// - `choice` is a `<select>`; with no options there is nothing to choose, so it is a text input.
/// - `changes` marks the control `data-den-change="<field id>"` for den.js.
enum FieldMarkup {
    static func node(_ field: Field, ids: FieldDOMIDs.IDs) -> Node<HTML.FormContext> {
        let error = message(field)
        return .div(
            error == nil ? .classes("den-field") : .classes("den-field", "den-field-invalid"),
            .label(.escaped("for", ids.control), .escapedText(labelText(field))),
            control(field, ids: ids),
            .unwrap(error) { error in
                .p(.escaped("id", ids.error), .classes("den-field-error"), .escapedText(error))
            }
        )
    }

    /// A field with an empty label is still named, by its id.
    static func labelText(_ field: Field) -> String {
        if !field.label.isEmpty { return field.label }
        return field.id.isEmpty ? "(unnamed field)" : field.id
    }

    /// An empty error says nothing, so the field is not marked invalid for it.
    static func message(_ field: Field) -> String? {
        field.error.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func control(_ field: Field, ids: FieldDOMIDs.IDs) -> Node<HTML.FormContext> {
        var attributes: [(name: String, value: String)] = [("id", ids.control), ("name", FormNames.field(field.id))]
        if message(field) != nil {
            attributes += [("aria-invalid", "true"), ("aria-describedby", ids.error)]
        }
        if field.changes {
            attributes.append(("data-den-change", field.id))
        }

        if field.kind == .choice, !field.options.isEmpty {
            return .select(
                .group(attributes.map { Node.escaped($0.name, $0.value) }),
                .group(options(field))
            )
        }

        switch field.kind {
        case .password:
            attributes += [("type", "password")]
        case .number:
            attributes += [("type", "text"), ("inputmode", "decimal"), ("value", field.value)]
        case .text, .choice:
            attributes += [("type", "text"), ("value", field.value)]
        }
        if let placeholder = field.placeholder, !placeholder.isEmpty {
            attributes.append(("placeholder", HTMLEscaping.visible(placeholder)))
        }
        return .selfClosedElement(named: "input", attributes: attributes.map { Attribute<HTML.InputContext>.escaped($0.name, $0.value) })
    }

    /// The options in the module's order, the current value selected. A value that is none of
    /// the options (often "": nothing chosen yet) comes first and selected, so the form posts
    /// back what the module sent rather than whatever option a browser would pick.
    private static func options(_ field: Field) -> [Node<HTML.SelectContext>] {
        var nodes: [Node<HTML.SelectContext>] = []
        if !field.options.contains(field.value) {
            let text = field.value.isEmpty ? (field.placeholder ?? "Choose…") : field.value
            nodes.append(option(value: field.value, text: text, selected: true))
        }
        var selectedOne = false
        for value in field.options {
            let selected = !selectedOne && value == field.value
            selectedOne = selectedOne || selected
            nodes.append(option(value: value, text: value, selected: selected))
        }
        return nodes
    }

    private static func option(value: String, text: String, selected: Bool) -> Node<HTML.SelectContext> {
        .element(named: "option", nodes: [
            .escaped("value", value),
            selected ? .flag("selected") : .empty,
            .escapedText(text),
        ])
    }
}
