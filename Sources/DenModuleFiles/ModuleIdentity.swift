import FoundationEssentials

/// The rules for a module's id and version (den_module.h and docs/ABI.md state them word for word).
package enum ModuleIdentity {
    package static let idRule = "1–64 characters of a-z, 0-9, '-' and '_', starting with a letter or digit"
    package static let versionRule =
        "a semantic version MAJOR.MINOR.PATCH of decimal numbers, optionally followed by -PRERELEASE and/or +BUILD made of A-Z, a-z, 0-9, '-' and '.'; at most 64 characters"

    package static func isValidID(_ id: String) -> Bool {
        // Over the bytes themselves, as isValidVersion: `utf8.allSatisfy` checks the string's
        // form at every byte, and this runs for every module at every start.
        var text = id
        return text.withUTF8 { bytes in
            guard (1...64).contains(bytes.count) else { return false }
            func allowed(_ byte: UInt8) -> Bool {
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            }
            guard allowed(bytes[0]) else { return false }
            for byte in bytes where !allowed(byte) && byte != UInt8(ascii: "-") && byte != UInt8(ascii: "_") { return false }
            return true
        }
    }

    package static func isValidVersion(_ version: String) -> Bool {
        // One pass over the bytes, nothing allocated: it runs for every module at every start.
        var text = version
        return text.withUTF8 { bytes in
            guard (5...64).contains(bytes.count) else { return false }
            func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
            func isLabel(_ byte: UInt8) -> Bool {
                isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            }
            // The core: three non-empty runs of digits joined by '.', ending at the first '-' or '+'.
            var index = 0
            for part in 0..<3 {
                let start = index
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
                guard index > start else { return false }
                if part < 2 {
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return false }
                    index += 1
                }
            }
            // Then an optional -PRERELEASE, then an optional +BUILD; each non-empty, no second '+'.
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
                index += 1
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "+") {
                    guard isLabel(bytes[index]) else { return false }
                    index += 1
                }
                guard index > start else { return false }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") {
                index += 1
                guard index < bytes.count else { return false }
                while index < bytes.count {
                    guard isLabel(bytes[index]) else { return false }
                    index += 1
                }
            }
            return index == bytes.count
        }
    }
}
