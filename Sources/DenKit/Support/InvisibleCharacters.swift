/// Characters that can hide or reorder text on a screen: Unicode format characters (bidi
/// controls, zero-width spaces, the BOM, the soft hyphen, …) and the line and paragraph
/// separators. The zero-width joiner is not among them: emoji sequences need it. Control
/// characters (C0, DEL, C1) are left to the caller, because each front-end shows them its own way.
/// The terminal (DenHost's ModuleText) and the browser (DenWebPages' HTMLEscaping) both ask here.
public enum InvisibleCharacters {
    public static func hides(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200D: false
        case 0xAD, 0x2028, 0x2029: true
        // No format character below U+0600 but the soft hyphen, nor among the general
        // punctuation U+2010–U+2027 (dashes, quotes, bullets, the ellipsis): no table look-up
        // for the text most screens hold.
        case 0..<0x600, 0x2010...0x2027: false
        default: scalar.properties.generalCategory == .format
        }
    }
}
