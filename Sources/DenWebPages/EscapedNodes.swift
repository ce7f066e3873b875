import Plot

// The only ways this target puts a string into a page. Plot's own `.text`, `.value`, `.href`,
// `.placeholder` etc. are not used for anything that varies, because of the gaps that
// `HTMLEscaping` describes.

extension Node {
    /// Text content, escaped (see `HTMLEscaping.text`).
    static func escapedText(_ text: String) -> Node {
        .raw(HTMLEscaping.text(text))
    }

    /// An attribute with an escaped value. An empty value is still written (`value=""`).
    static func escaped(_ name: String, _ value: String) -> Node {
        .attribute(Attribute.escaped(name, value))
    }

    /// A boolean attribute, written `name="name"` (valid HTML, and well-formed XML for the tests).
    static func flag(_ name: String) -> Node {
        .attribute(Attribute(name: name, value: name))
    }

    /// `class="…"`, for the page's own class names only.
    static func classes(_ names: String...) -> Node {
        .attribute(Attribute(name: "class", value: names.joined(separator: " ")))
    }
}

extension Attribute {
    /// An attribute with an escaped value, for elements Plot builds from attributes (`<input>`).
    static func escaped(_ name: String, _ value: String) -> Attribute {
        // Plot writes an empty value as a bare name (`value`); spelled out, it stays explicit
        // and the page stays well-formed XML. `name` is always one of this target's constants.
        if value.isEmpty { return Attribute(name: name + "=\"\"", value: nil, ignoreIfValueIsEmpty: false) }
        return Attribute(name: name, value: HTMLEscaping.attribute(value))
    }

    static func flag(_ name: String) -> Attribute {
        Attribute(name: name, value: name)
    }
}
