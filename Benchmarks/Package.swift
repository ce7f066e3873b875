// swift-tools-version: 6.0
import PackageDescription

/// Den's speed figures, each printed as a ratio to a baseline measured in the same run.
/// A separate package so RoutingKit (the router peer) never becomes a dependency of Den itself.
/// Run it through `Scripts/bench.sh`, which builds the root package (den + plugins) first.
let package = Package(
    name: "DenBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Den", path: ".."),
        .package(url: "https://github.com/vapor/routing-kit", from: "4.9.3"),
        // The router figure's second peer: Hummingbird 2's trie (the web front-end's framework).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // The login figure's baseline: a bare scrypt call, as the host makes it.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // The monolith figure's baseline app stores its jogs with GRDB, as den's storage does.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .executableTarget(name: "den-bench", dependencies: [
            .product(name: "DenRouting", package: "Den"),
            .product(name: "DenHost", package: "Den"),
            .product(name: "DenHotSwap", package: "Den"),
            .product(name: "DenIsolation", package: "Den"),
            .product(name: "DenAccounts", package: "Den"),
            .product(name: "DenSQLiteEngine", package: "Den"),
            .product(name: "DenKit", package: "Den"),
            .product(name: "DenCatalog", package: "Den"),
            .product(name: "RoutingKit", package: "routing-kit"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
        ]),
        // The process-start baseline: a hello-world Swift executable.
        .executableTarget(name: "hello"),
        // Breakdown baselines (not goals): what loading Foundation, and FoundationNetworking, adds.
        .executableTarget(name: "hello-foundation"),
        .executableTarget(name: "hello-networking"),
        // The monolith figure's baseline: Den's Jogs pages written as one Hummingbird + GRDB app.
        .executableTarget(name: "jogs-monolith", dependencies: [
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
