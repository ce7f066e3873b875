/// DOM ids for a screen's fields (`<label for>`, `aria-describedby`, focus kept by den.js).
///
/// A module's field id may hold any character, but an HTML id must hold no space and
/// `aria-describedby` is a space-separated list. So ids are encoded: ASCII letters, digits and
/// `-` stay, every other byte of the UTF-8 becomes `_` and two hex digits (`_` itself included,
/// which keeps the encoding one-to-one). A field id that repeats on a screen (a module's
/// mistake) gets `-2`, `-3`…, so every label still points at its own input.
struct FieldDOMIDs {
    struct IDs: Equatable {
        /// The input's (or select's) id.
        var control: String
        /// The id of the field's error message.
        var error: String
    }

    private var used: Set<String> = []

    mutating func next(for fieldID: String) -> IDs {
        let base = Self.encode(fieldID)
        var unique = base
        var counter = 1
        while used.contains(unique) {
            counter += 1
            unique = "\(base)-\(counter)"
        }
        used.insert(unique)
        return IDs(control: "den-field-" + unique, error: "den-error-" + unique)
    }

    static func encode(_ id: String) -> String {
        var result = ""
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "_" + Self.hex(byte)
            }
        }
        return result
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
