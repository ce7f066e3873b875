/// Swift names made from module.json's names: `weekly_totals` → `weeklyTotals`,
/// `login/register` → `loginRegister`, `swift-faults` → `swiftFaults`.
enum SwiftNaming {
    /// lowerCamelCase from the words of `text` (split at anything but ASCII letters and digits).
    static func lowerCamel(_ text: String) -> String {
        let words = text.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init)
        guard let first = words.first else { return "" }
        var name = lowerFirst(first) + words.dropFirst().map(upperFirst).joined()
        // An identifier cannot start with a digit (`2fa` → `_2fa`).
        if name.first?.isNumber == true { name = "_" + name }
        return name
    }

    /// An argument label at a call site: every keyword may stand there bare but `inout`, `var`
    /// and `let` (Swift warns about backticks it does not need).
    static func argumentLabel(_ name: String) -> String {
        ["inout", "var", "let"].contains(name) ? "`\(name)`" : name
    }

    static func upperFirst(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }
    static func lowerFirst(_ word: String) -> String { word.prefix(1).lowercased() + word.dropFirst() }

    /// A Swift string literal (escapes `\`, `"` and control characters).
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
