import FoundationEssentials

/// The rules for a module's id and version (den_module.h and docs/ABI.md state them word for word).
public enum ModuleIdentity {
    public static let idRule = "1–64 characters of a-z, 0-9, '-' and '_', starting with a letter or digit"
    public static let versionRule =
        "a semantic version MAJOR.MINOR.PATCH of decimal numbers, optionally followed by -PRERELEASE and/or +BUILD made of A-Z, a-z, 0-9, '-' and '.'; at most 64 characters"

    public static func isValidID(_ id: String) -> Bool {
        let bytes = id.utf8
        guard (1...64).contains(bytes.count), let first = bytes.first else { return false }
        func allowed(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        return allowed(first) && bytes.allSatisfy { allowed($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    public static func isValidVersion(_ version: String) -> Bool {
        let bytes = Array(version.utf8)
        guard (5...64).contains(bytes.count) else { return false }
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        func isLabel(_ byte: UInt8) -> Bool {
            isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        // The core ends at the first '-' or '+'; what follows is a label of the allowed bytes.
        let coreEnd = bytes.firstIndex { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") } ?? bytes.count
        let parts = bytes[..<coreEnd].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) }) else { return false }
        // Then an optional -PRERELEASE, then an optional +BUILD; each non-empty, no second '+'.
        var rest = bytes[coreEnd...]
        if rest.first == UInt8(ascii: "-") {
            let end = rest.firstIndex(of: UInt8(ascii: "+")) ?? rest.endIndex
            let prerelease = rest[rest.index(after: rest.startIndex)..<end]
            guard !prerelease.isEmpty, prerelease.allSatisfy(isLabel) else { return false }
            rest = rest[end...]
        }
        if rest.first == UInt8(ascii: "+") {
            let build = rest.dropFirst()
            return !build.isEmpty && build.allSatisfy(isLabel)
        }
        return rest.isEmpty
    }
}
