import Foundation

/// Reads the distance field: kilometres as a decimal number (`5`, `5.2`, `5,25`, `10.125 km`).
/// A comma counts as the decimal point; a trailing `km` and spaces around are ignored. Returns
/// whole metres, or a message that says what was wrong and what to type.
enum DistanceParser {
    static func parse(_ raw: String) -> Result<Int, DistanceRejection> {
        var text = raw.trimmingCharacters(in: .whitespaces)
        if text.lowercased().hasSuffix("km") {
            text = String(text.dropLast(2)).trimmingCharacters(in: .whitespaces)
        }
        guard !text.isEmpty else { return .failure(.empty) }
        let parts = text.replacingOccurrences(of: ",", with: ".").split(separator: ".", omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = { $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard parts.count <= 2, parts.allSatisfy(isDigits), parts.contains(where: { !$0.isEmpty }) else {
            return .failure(text.hasPrefix("-") ? .notPositive(raw: raw) : .notANumber(raw: raw))
        }
        let whole = parts[0], fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= JogLimits.maxDistanceDecimals else { return .failure(.tooPrecise(raw: raw)) }
        // More whole digits than any allowed distance has: too far, and no Int overflow.
        let wholeDigits = whole.drop { $0 == "0" }
        guard wholeDigits.count <= 7 else { return .failure(.tooFar(raw: raw)) }
        let padded = fraction + String(repeating: "0", count: JogLimits.maxDistanceDecimals - fraction.count)
        let metres = (Int(wholeDigits) ?? 0) * 1000 + (Int(padded) ?? 0)
        guard metres > 0 else { return .failure(.notPositive(raw: raw)) }
        guard metres <= JogLimits.maxDistanceMetres else { return .failure(.tooFar(raw: raw)) }
        return .success(metres)
    }
}

/// Why a distance was refused.
enum DistanceRejection: Error, Equatable, CustomStringConvertible {
    case empty
    case notANumber(raw: String)
    case notPositive(raw: String)
    case tooPrecise(raw: String)
    case tooFar(raw: String)

    var description: String {
        switch self {
        case .empty:
            "Enter the distance in kilometres, e.g. 5.2."
        case .notANumber(let raw):
            "'\(raw)' is not a distance: type kilometres as a number, e.g. 5 or 5.25."
        case .notPositive(let raw):
            "'\(raw)' km: the distance must be more than 0 km."
        case .tooPrecise(let raw):
            "'\(raw)' has more than \(JogLimits.maxDistanceDecimals) decimals: distances are kept to the metre, e.g. 5.255."
        case .tooFar(let raw):
            "'\(raw)' km is more than the \(JogLimits.maxDistanceMetres / 1000) km a jog can be; check the distance."
        }
    }
}
