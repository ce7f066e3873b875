@testable import DenCatalog
import Testing

/// Short spellings for the specs: versions, ranges and releases from text.
func version(_ text: String) throws -> SemanticVersion { try SemanticVersion(parsing: text) }

func range(_ text: String) throws -> VersionRequirement { try VersionRequirement(parsing: text) }

func release(_ id: String, _ versionText: String, _ requires: [String: String] = [:]) throws -> ModuleRelease {
    try ModuleRelease(id: id, version: versionText, requires: requires)
}

/// Installed modules by id, from releases.
func installedSet(_ releases: [ModuleRelease]) -> [String: ModuleRelease] {
    Dictionary(uniqueKeysWithValues: releases.map { ($0.id, $0) })
}

/// A repeatable stream of numbers (SplitMix64) for the property checks: the same cases every run.
struct SeededNumbers {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
