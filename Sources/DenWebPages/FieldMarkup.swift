import DenKit

/// One Screen field: a visible `<label for>`, its control, and its error message tied to the
/// control with `aria-describedby` / `aria-invalid`.
///
/// - `number` is a text input with `inputmode="decimal"`, not `type="number"`: the module
///   validates the text itself ("12,5" must reach it as typed), and den.js needs the caret
///   position, which number inputs do not expose.
/// - `date` is `type="date"`: the browser's date picker, posting YYYY-MM-DD.
/// - `autocomplete` is passed on when it is a plain token list (letters, digits, '-', spaces).
/// - `password` never carries a value, whatever the Screen says.
/// - `choice` is a `<select>`; with no options there is nothing to choose, so it is a text input.
/// - `changes` marks the control `data-den-change="<field id>"` for den.js.
enum FieldMarkup {
    static func write(_ field: Field, ids: FieldDOMIDs.IDs, into page: inout HTMLWriter) {
        let error = message(field)
        page.element(.div, error == nil ? .classes("den-field") : .classes("den-field den-field-invalid")) { page in
            page.element(.label, HTMLAttribute(.for, ids.control), text: labelText(field))
            control(field, ids: ids, into: &page)
            if let error {
                page.element(.p, HTMLAttribute(.id, ids.error), .classes("den-field-error"), text: error)
            }
        }
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

    private static func control(_ field: Field, ids: FieldDOMIDs.IDs, into page: inout HTMLWriter) {
        var attributes = [HTMLAttribute(.id, ids.control), HTMLAttribute(.name, FormNames.field(field.id))]
        if message(field) != nil {
            attributes += [HTMLAttribute(.ariaInvalid, "true"), HTMLAttribute(.ariaDescribedBy, ids.error)]
        }
        if field.changes {
            attributes.append(HTMLAttribute(.dataDenChange, field.id))
        }
        if let autocomplete = field.autocomplete, !autocomplete.isEmpty, autocomplete.count <= 64,
           autocomplete.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit || ("a"..."z").contains($0) || $0 == "-" || $0 == " " }) {
            attributes.append(HTMLAttribute(.autocomplete, autocomplete))
        }

        if field.kind == .choice, !field.options.isEmpty {
            page.element(.select, attributes) { options(field, into: &$0) }
            return
        }

        switch field.kind {
        case .password:
            attributes.append(HTMLAttribute(.type, "password"))
        case .number:
            attributes += [HTMLAttribute(.type, "text"), HTMLAttribute(.inputmode, "decimal"), HTMLAttribute(.value, field.value)]
        case .date:
            attributes += [HTMLAttribute(.type, "date"), HTMLAttribute(.value, field.value)]
        case .text, .choice:
            attributes += [HTMLAttribute(.type, "text"), HTMLAttribute(.value, field.value)]
        }
        if let placeholder = field.placeholder, !placeholder.isEmpty {
            attributes.append(HTMLAttribute(.placeholder, HTMLEscaping.visible(placeholder)))
        }
        page.void(.input, attributes)
    }

    /// The options in the module's order, the current value selected. A value that is none of
    /// the options (often "": nothing chosen yet) comes first and selected, so the form posts
    /// back what the module sent rather than whatever option a browser would pick.
    private static func options(_ field: Field, into page: inout HTMLWriter) {
        if !field.options.contains(field.value) {
            let text = field.value.isEmpty ? (field.placeholder ?? "Choose…") : field.value
            option(value: field.value, text: text, selected: true, into: &page)
        }
        var selectedOne = false
        for value in field.options {
            let selected = !selectedOne && value == field.value
            selectedOne = selectedOne || selected
            option(value: value, text: value, selected: selected, into: &page)
        }
    }

    private static func option(value: String, text: String, selected: Bool, into page: inout HTMLWriter) {
        if selected {
            page.element(.option, HTMLAttribute(.value, value), .flag(.selected), text: text)
        } else {
            page.element(.option, HTMLAttribute(.value, value), text: text)
        }
    }
}
