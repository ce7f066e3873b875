/// The ways a Swift module fails that isolation must contain. Each ends the process (or never
/// returns) in a build of any optimisation level.
enum Fault: String, CaseIterable, Sendable {
    /// `fatalError(_:)`: a trap (SIGILL on x86-64, SIGTRAP on arm64).
    case fatal
    /// An array subscript past its end: the runtime's bounds check traps.
    case index
    /// `!` on a nil optional: a trap.
    case unwrap
    /// Spins on the CPU without end, never returning: only the call limit stops it.
    case loop
    /// Reserves 64 MiB blocks and keeps them until an allocation fails (the worker's address
    /// space limit); the Swift runtime then aborts (SIGABRT).
    case memory
}

/// What the screen keeps, and what a crash must not lose: restored from the snapshot.
struct Tally: Codable, Equatable, Sendable {
    var count: Int
    /// The count whose restore ends the process (the `poison-restore` action saves it).
    static let crashesRestore = -1000
}
