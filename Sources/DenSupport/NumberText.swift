/// Numbers as text without Foundation's `String(format:)`, which FoundationEssentials lacks.
package enum NumberText {
    /// `value` with exactly `places` decimals, rounded half away from zero: `fixed(2.345, 1)` is "2.3".
    package static func fixed(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard scaled < 9e18 else { return "\(value)" }
        let units = Int(scaled)
        let whole = units / Int(scale)
        guard places > 0 else { return "\(sign)\(whole)" }
        let fraction = String(units % Int(scale))
        return "\(sign)\(whole).\(String(repeating: "0", count: places - fraction.count))\(fraction)"
    }

    /// Two lowercase hex digits per byte.
    package static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
