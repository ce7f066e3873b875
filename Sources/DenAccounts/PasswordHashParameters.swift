import FoundationEssentials

/// scrypt's cost parameters (RFC 7914). They are stored beside every hash, so raising them later
/// only needs a new configuration: a hash made with weaker ones is redone at its next login.
public struct PasswordHashParameters: Codable, Sendable, Equatable, CustomStringConvertible {
    /// N, the CPU/memory cost: a power of two. Memory is 128 · N · r bytes.
    public var rounds: Int
    /// r, the block size.
    public var blockSize: Int
    /// p, the parallelism.
    public var parallelism: Int

    package init(rounds: Int, blockSize: Int, parallelism: Int) {
        self.rounds = rounds
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// N = 2^15, r = 8, p = 1: about 124 ms and 32 MiB per hash in a release build here
    /// (docs/shared DESIGN §10), near the 100 ms the host aims for.
    public static let standard = PasswordHashParameters(rounds: 1 << 15, blockSize: 8, parallelism: 1)
    /// For tests only: fast, and far too weak for real passwords.
    package static let testing = PasswordHashParameters(rounds: 1 << 4, blockSize: 8, parallelism: 1)

    /// Whether a hash made with these parameters is cheaper to attack than one made with `other`.
    package func isWeaker(than other: PasswordHashParameters) -> Bool {
        rounds < other.rounds || blockSize < other.blockSize || parallelism < other.parallelism
    }

    /// Why these parameters cannot be used, or nil.
    package var problem: String? {
        guard rounds >= 2, rounds & (rounds - 1) == 0, rounds <= 1 << 22 else {
            return "scrypt rounds (N) must be a power of two from 2 to 2^22, not \(rounds)"
        }
        guard (1...64).contains(blockSize), (1...16).contains(parallelism) else {
            return "scrypt block size (r) must be 1...64 and parallelism (p) 1...16, not r=\(blockSize) p=\(parallelism)"
        }
        return nil
    }

    /// The memory scrypt needs, with room to spare; passed to swift-crypto so its default limit
    /// never refuses parameters raised later.
    package var memoryLimit: Int { 128 * blockSize * (rounds + parallelism + 2) + (1 << 20) }

    public var description: String { "scrypt N=2^\(rounds.trailingZeroBitCount) r=\(blockSize) p=\(parallelism)" }

    package enum CodingKeys: String, CodingKey {
        case rounds = "n", blockSize = "r", parallelism = "p"
    }
}
