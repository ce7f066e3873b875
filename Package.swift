// swift-tools-version: 6.1
import PackageDescription

/// Plugins are shared libraries the host `dlopen`s. `-z nodelete` keeps an image mapped even if
/// someone calls `dlclose` (the Swift runtime never forgets a loaded image's metadata), and
/// `-Bsymbolic` binds a plugin's own C symbols to itself so no other image can interpose them.
let pluginLinkerFlags: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "-z", "-Xlinker", "nodelete", "-Xlinker", "-Bsymbolic"]),
]

/// Bundled modules also export nothing but the `den_*` ABI symbols (a smaller dynamic symbol
/// table loads faster; docs/PERFORMANCE.md).
let moduleLinkerFlags: [LinkerSetting] = pluginLinkerFlags + [
    .unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/Plugins/plugin-exports.map"]),
]

let startPathSwift: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]

/// A bundled module: `Plugins/<Name>` (the VIPER layers, also linked into its unit tests, with the
/// Swift that DenManifestPlugin generates from `Manifest/module.json`) plus `Plugins/<Name>/Entry`
/// (only the exported C entry point, which would clash between modules linked into one test
/// binary) plus `Plugins/<Name>/Manifest` (module.json as the `den_manifest` symbol), built
/// together as `lib<Name>Module.so`.
func module(_ name: String, path: String? = nil, dependencies: [Target.Dependency] = []) -> [Target] {
    let path = path ?? "Plugins/\(name)"
    return [
        .target(name: "\(name)Module", dependencies: [.target(name: "DenKit")] + dependencies, path: path,
                exclude: ["Entry", "Manifest"], swiftSettings: startPathSwift, linkerSettings: pluginLinkerFlags,
                plugins: ["DenManifestPlugin"]),
        .target(name: "\(name)ModuleEntry", dependencies: [.target(name: "\(name)Module"), "DenKit", .target(name: "\(name)ModuleManifest")],
                path: "\(path)/Entry", swiftSettings: startPathSwift, linkerSettings: moduleLinkerFlags),
        // `den_manifest`: Manifest/module.json put into the library by clang's #embed (docs/ABI.md, "The manifest").
        .target(name: "\(name)ModuleManifest", dependencies: ["CDenABI"], path: "\(path)/Manifest", exclude: ["module.json"],
                publicHeadersPath: "."),
    ]
}

/// The files `den new-module` renders, built into `den-commands` itself (`PackageResources.<name>_mustache`).
let newModuleTemplates = ["Package.swift", "README.md", "gitignore", "Builder.swift", "Entity.swift",
                          "Interactor.swift", "Presenter.swift", "Router.swift", "View.swift", "ViewObject.swift",
                          "Services.swift", "Entry.swift", "manifest.c", "module.json", "Mocks.swift",
                          "PresenterTests.swift", "InteractorTests.swift", "RouterTests.swift", "StackTests.swift"]

/// Everything but the SDK needs the trait `Host` (on by default). A module package depends on Den
/// with `traits: []`, so SwiftPM resolves none of the host's dependencies for it: the SDK (DenKit,
/// CDenABI) depends on no other package (docs/WRITING_MODULES.md, "Depending on Den").
let host = TargetDependencyCondition.when(traits: ["Host"])

let package = Package(
    name: "Den",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "den", targets: ["den"]),
        .executable(name: "den-commands", targets: ["den-commands"]),
        .library(name: "DenKit", targets: ["DenKit"]),
        .library(name: "DenRouting", targets: ["DenRouting"]),
        .library(name: "DenHost", targets: ["DenHost"]),
        // What an embedder adds to the runtime: hot swap and folder watching, worker isolation
        // (`HostConfiguration.useWorkerIsolation()`), the auth settings.
        .library(name: "DenHotSwap", targets: ["DenHotSwap"]),
        .library(name: "DenIsolation", targets: ["DenIsolation"]),
        .library(name: "DenAccounts", targets: ["DenAccounts"]),
        .library(name: "DenSQLiteEngine", targets: ["DenSQLiteEngine"]),
        // For the benchmark package's catalog figure: the resolver and the index (public there, the
        // rest `package`).
        .library(name: "DenCatalog", targets: ["DenCatalog"]),
        .library(name: "AboutModule", type: .dynamic, targets: ["AboutModuleEntry"]),
        .library(name: "MainModule", type: .dynamic, targets: ["MainModuleEntry"]),
        .library(name: "LoginModule", type: .dynamic, targets: ["LoginModuleEntry"]),
        .library(name: "JogsModule", type: .dynamic, targets: ["JogsModuleEntry"]),
        // For the isolation tests only (Tests/SwiftFaultsFixture). Its file name does not end in
        // Module.so, so den never loads it from its own folder and Scripts/install.sh never copies it.
        .library(name: "DenFixtureSwiftFaults", type: .dynamic, targets: ["SwiftFaultsModuleEntry"]),
        // The `http` service's network I/O, loaded by the host on the first fetch.
        .library(name: "DenHTTPTransport", type: .dynamic, targets: ["DenHTTPTransport"]),
        // scrypt, SHA-256 and Ed25519 (swift-crypto), BLAKE2b (libsodium), loaded by the host on the
        // first password hash or signature check.
        .library(name: "DenCrypto", type: .dynamic, targets: ["DenCrypto"]),
        // SQLite storage (GRDB, which imports Foundation), loaded by the host on the first storage call.
        .library(name: "DenSQLiteStorage", type: .dynamic, targets: ["DenSQLiteStorage"]),
        // Generates a Swift module's side from its Manifest/module.json at build time (docs/WRITING_MODULES.md).
        .plugin(name: "DenManifestPlugin", targets: ["DenManifestPlugin"]),
    ],
    traits: [
        .trait(name: "Host", description: "Den itself: the host, its front-ends, its libraries and the bundled modules. A module package turns it off (traits: [])."),
        .default(enabledTraits: ["Host"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // scrypt for the `auth` service's password hashes, SHA-256 for reset tokens (DESIGN §10).
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // The browser front-end's HTTP server.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hot swap's server-sent events end when den serve shuts down gracefully (Hummingbird's own lifecycle).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        // `den new-module` renders its templates (Sources/DenCommands/Templates) with Mustache.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // The PostgreSQL storage engine (`den serve --database postgres://…`): its client pool.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // `den serve --metrics`: each module's figures in Prometheus form (docs/OBSERVABILITY.md).
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `den serve --otlp-endpoint`: each request's and module call's span, over OTLP/HTTP only
        // (the gRPC exporter's dependencies would double the build for nothing den needs).
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.3.0"),
    ],
    targets: [
        // The one contract between host and modules: a documented C header.
        .target(name: "CDenABI"),
        // The SDK module authors import.
        // No unsafe flags here, nor in what it depends on: SwiftPM refuses a versioned dependency
        // whose product has them ("contains unsafe build flags"), and authors pin DenKit by version.
        .target(name: "DenKit", dependencies: ["CDenABI", "CDenKitStamp"]),
        // The data symbols (ABI version, toolchain) every DenKit-based plugin exports.
        .target(name: "CDenKitStamp", dependencies: ["CDenABI"]),
        // The router: route patterns compiled into a trie, resolution, URL generation. Pure: no I/O,
        // no dependency on the rest of the host (README, "Architecture").
        .target(name: "DenRouting"),
        // Small host-side helpers every host target shares: text, time, files, threads, the
        // environment and the wire limits. No host types.
        .target(name: "DenSupport", dependencies: ["CDenABI", "DenKit", "CDenThreads",
                                                   .product(name: "Logging", package: "swift-log", condition: host)], swiftSettings: startPathSwift),
        // Opens den's three run-time libraries (libDenCrypto, libDenSQLiteStorage,
        // libDenHTTPTransport) and calls them through den_libraries.h; where den is installed.
        .target(name: "DenLibraryClients", dependencies: ["CDenABI", "CDenLibraries", "DenLibraryContracts", "DenKit", "DenSupport"], swiftSettings: startPathSwift),
        // User accounts: password hashes, policy, login delays, device tokens, auth settings.
        // The `auth` service that offers them to modules is DenHost's.
        .target(name: "DenAccounts", dependencies: ["DenLibraryClients", "DenLibraryContracts", "DenKit", "DenSupport", "CDenCommonPasswords"], swiftSettings: startPathSwift),
        // What den reads of a module file without loading it: the ELF header and symbols, the
        // ABI version, the toolchain and the den_manifest, and the registry cache that keeps them.
        .target(name: "DenModuleFiles", dependencies: ["CDenABI", "DenKit", "DenRouting", "DenSupport"], swiftSettings: startPathSwift),
        // The module catalog's pure logic: SemVer versions and ranges, the index and its checks,
        // dependency resolution, the load order and `why`. No I/O: the commands bring the files.
        .target(name: "DenCatalog", dependencies: ["DenKit", "DenModuleFiles"]),
        // Calling module exports through libffi: signatures, argument checks, the call itself.
        .target(name: "DenExports", dependencies: ["CDenABI", "CFFI", "DenKit", "DenSupport"], swiftSettings: startPathSwift),
        // The runtime: loader, registry, navigator, host services. Knows no front-end.
        // Permissions: the gate every module service call meets, and the user's grants.
        .target(name: "DenPermissions", dependencies: ["DenKit", "DenLibraryContracts", "DenSupport",
                                                       .product(name: "Logging", package: "swift-log", condition: host)],
                swiftSettings: startPathSwift),
        // What a module call is and who hears of it: the observers' protocols, the slow-call
        // warning and the minute's time share (docs/OBSERVABILITY.md). DenHost re-exports it.
        .target(name: "DenObservation", dependencies: ["CDenABI", "CDenSignals", .product(name: "Logging", package: "swift-log", condition: host)],
                swiftSettings: startPathSwift),
        .target(name: "DenHost", dependencies: [
            "CDenABI", "DenKit", "DenObservation", "DenRouting", "DenLibraryContracts", "DenSupport", "DenModuleFiles", "DenLibraryClients", "DenAccounts", "DenExports",
            "DenPermissions", "DenCatalog", "CDenSignals",
            .product(name: "Logging", package: "swift-log", condition: host),
        ], swiftSettings: startPathSwift),
        // Hot swap: replacing a running module, watching plugin folders (inotify), what a running
        // den reports about itself.
        .target(name: "DenHotSwap", dependencies: ["DenHost", "DenKit", "DenModuleFiles", "DenRouting", "DenSupport",
                                                   .product(name: "Logging", package: "swift-log", condition: host)], swiftSettings: startPathSwift),
        // Module signatures: minisign files, keys, the trust list and the verdict cache, behind
        // DenHost's `SignatureChecking` (docs/SIGNING.md). The runtime applies the policy only.
        .target(name: "DenTrust", dependencies: ["DenHost", "DenKit", "DenSupport", "DenLibraryClients", "CDenLibraries", "DenLibraryContracts"]),
        // The isolated module's host side: its worker processes (supervisor), the frames both
        // ends speak, the stand-in builders, instances and exports, the quarantine (docs/ISOLATION.md).
        .target(name: "DenIsolation", dependencies: ["DenHost", "DenExports", "DenKit", "DenSupport", "DenLibraryClients", "CDenABI", "CDenProcess",
                                                     .product(name: "Logging", package: "swift-log", condition: host)], swiftSettings: startPathSwift),
        // Starting and watching isolated modules' worker processes: posix_spawn, pidfd (docs/ISOLATION.md).
        .target(name: "CDenProcess"),
        // The worker's sandbox: no_new_privs, seccomp (Debian libseccomp-dev, installed by
        // Scripts/setup.sh) and landlock. Only the worker links it.
        .target(name: "CDenSandbox", linkerSettings: [.linkedLibrary("seccomp")]),
        // `den worker`: one isolated module in a sandboxed process of its own, serving the host.
        .target(name: "DenWorker", dependencies: ["DenHost", "DenIsolation", "DenExports", "DenSupport", "DenKit", "CDenABI", "CDenSandbox"], swiftSettings: startPathSwift),
        // `libDenCrypto.so`: swift-crypto's scrypt and SHA-256 behind two C functions, loaded by the
        // host on the first password or reset-token hash (den_libraries.h). Exports only those.
        .target(name: "DenCrypto", dependencies: [
            "CDenLibraries", "CSodium",
            .product(name: "Crypto", package: "swift-crypto", condition: host),
            .product(name: "CryptoExtras", package: "swift-crypto", condition: host),
        ], exclude: ["exports.map"],
        linkerSettings: pluginLinkerFlags + [
            .unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/DenCrypto/exports.map"]),
        ]),
        // The `storage` service's SQLite engine and its maintenance (`den data`, `den users`), on GRDB.
        .target(name: "DenSQLiteEngine", dependencies: ["DenLibraryContracts", "DenKit", .product(name: "GRDB", package: "GRDB.swift", condition: host)]),
        // The `storage` service's PostgreSQL engine (schema, migrations, copying a SQLite folder in),
        // on postgres-nio. Linked into `den-commands`, which already carries SwiftNIO for `den serve`
        // (docs/DEPLOY.md, "Why the engine is linked in").
        .target(name: "DenPostgresEngine", dependencies: ["DenLibraryContracts", "DenKit",
                                                          .product(name: "PostgresNIO", package: "postgres-nio", condition: host),
                                                          .product(name: "Logging", package: "swift-log", condition: host)]),
        // `libDenSQLiteStorage.so`: DenSQLiteEngine behind the C functions of den_libraries.h.
        // Exports only those, bound to itself; it links the contract, never DenHost.
        .target(name: "DenSQLiteStorage", dependencies: ["DenSQLiteEngine", "DenLibraryContracts", "CDenLibraries", "DenKit", "CDenABI"],
                exclude: ["exports.map"],
                linkerSettings: pluginLinkerFlags + [
                    .unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/DenSQLiteStorage/exports.map"]),
                ]),
        // The common and breached passwords the `auth` service refuses, built in with #embed (README.md there).
        .target(name: "CDenCommonPasswords", exclude: ["common-passwords.txt", "README.md", "LICENSE-django"]),
        // libsodium (Debian libsodium-dev, installed by Scripts/setup.sh): BLAKE2b for minisign's
        // prehashed module signatures, linked only into libDenCrypto.so (docs/SIGNING.md).
        .systemLibrary(name: "CSodium", providers: [.apt(["libsodium-dev"])]),
        // libffi (Debian libffi-dev, installed by Scripts/setup.sh): calls module exports (DenExports).
        .systemLibrary(name: "CFFI", providers: [.apt(["libffi-dev"])]),
        // What den and the three libraries it opens at run time exchange: their C functions, typed
        // once in den_libraries.h and checked on both sides ...
        .target(name: "CDenLibraries", dependencies: ["CDenABI"]),
        // ... and the documents those functions carry, with the storage engine's protocol. Each
        // library links this, never DenHost.
        .target(name: "DenLibraryContracts", dependencies: ["CDenLibraries", "CDenABI", "DenKit"]),
        // URLSession (FoundationNetworking) behind one C function; see HTTPTransport.swift.
        .target(name: "DenHTTPTransport", dependencies: ["CDenABI", "CDenLibraries", "DenLibraryContracts"]),
        // Ctrl-C handling for the terminal (a signal handler must be C: flags only).
        .target(name: "CDenSignals"),
        // Thread names for the host's own threads (pthread_setname_np, a GNU extension).
        .target(name: "CDenThreads"),
        // Line editing and history for the terminal (Debian libedit-dev, installed by Scripts/setup.sh).
        .systemLibrary(name: "CEditLine", providers: [.apt(["libedit-dev"])]),
        // Screens as terminal text: what `den render` prints, without the line editor, so `den`
        // does not load libedit (docs/PERFORMANCE.md).
        .target(name: "DenTerminalText", dependencies: ["DenHost", "DenKit", "DenSupport"], swiftSettings: startPathSwift),
        // The interactive terminal front-end (`den run`): line editing, Ctrl-C, redraws.
        .target(name: "DenTerminal", dependencies: ["DenTerminalText", "DenHost", "DenKit", "DenSupport", "CDenSignals", "CEditLine"]),
        // Screens as HTML pages (HTML by construction: HTMLWriter), with the stylesheet and script;
        // knows no HTTP (docs/WEB.md, "Pages").
        .target(name: "DenWebPages", dependencies: ["DenKit"]),
        // The browser front-end: `den serve` on Hummingbird, one NavigationSession per browser session.
        .target(name: "DenWeb", dependencies: ["DenHost", "DenKit", "DenSupport", "DenLibraryClients", "DenWebPages",
                                               .product(name: "Hummingbird", package: "hummingbird", condition: host),
                                               .product(name: "HummingbirdCore", package: "hummingbird", condition: host),
                                               .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: host)]),
        // Metrics: every module call, service call and host event counted in Prometheus form, and
        // the address that serves them (`den serve --metrics`, `den top`; docs/OBSERVABILITY.md).
        .target(name: "DenMetrics", dependencies: ["DenHost", "DenSupport", "CDenABI",
                                                   .product(name: "Prometheus", package: "swift-prometheus", condition: host),
                                                   .product(name: "Hummingbird", package: "hummingbird", condition: host),
                                                   .product(name: "Logging", package: "swift-log", condition: host)]),
        // Traces: den's spans (requests, module calls, service calls) exported over OTLP/HTTP with
        // swift-otel (`den serve --otlp-endpoint`; docs/OBSERVABILITY.md).
        .target(name: "DenTracing", dependencies: ["DenHost",
                                                   .product(name: "OTel", package: "swift-otel", condition: host),
                                                   .product(name: "Tracing", package: "swift-distributed-tracing", condition: host),
                                                   .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: host),
                                                   .product(name: "Logging", package: "swift-log", condition: host)]),
        // What `den` and `den-commands` share: the host options, the exit statuses, `render`'s output.
        .target(name: "DenCommandLine", dependencies: ["DenHost", "DenIsolation", "DenTrust", "DenKit", "DenModuleFiles", "DenSupport", "DenLibraryClients", "DenLibraryContracts", "DenTerminalText",
                                                          .product(name: "Logging", package: "swift-log", condition: host)],
                swiftSettings: startPathSwift),
        // `den`: runs `den render` itself, without Foundation or ArgumentParser (a start within 2×
        // a hello world, docs/PERFORMANCE.md), and hands every other command to `den-commands`.
        .executableTarget(name: "den", dependencies: ["DenCommandLine", "DenHost", "DenSupport", "DenLibraryClients", "DenWorker"], swiftSettings: startPathSwift),
        // `den-commands`: every command, parsed by swift-argument-parser.
        .executableTarget(name: "den-commands", dependencies: [
            "DenCommandLine", "DenHost", "DenHotSwap", "DenIsolation", "DenTrust", "DenAccounts", "DenSupport", "DenLibraryClients", "DenLibraryContracts",
            "DenPermissions", "DenMetrics", "DenTracing", "DenCatalog", "DenSQLiteEngine", "DenPostgresEngine", "DenTerminal", "DenTerminalText", "DenWeb", "DenKit", "DenRouting", "CDenABI", "DenManifestCodegen",
            .product(name: "ArgumentParser", package: "swift-argument-parser", condition: host),
            .product(name: "Logging", package: "swift-log", condition: host),
            .product(name: "Mustache", package: "swift-mustache", condition: host),
        ], path: "Sources/DenCommands", resources: newModuleTemplates.map { .embedInCode("Templates/\($0).mustache") }),
        .testTarget(name: "DenWebPagesTests", dependencies: ["DenWebPages", "DenKit"]),
        // A module's Swift side from its module.json: reading and checking the file, naming, the
        // generated source. Pure; shared by the build tool and its tests. Build-time only (Foundation).
        .target(name: "DenManifestCodegen", dependencies: ["DenKit", "DenRouting"]),
        // The build tool DenManifestPlugin runs: module.json in, Swift out, or a build error naming the field.
        .executableTarget(name: "den-manifest-swift", dependencies: ["DenManifestCodegen"]),
        // The build-tool plugin module targets apply; it finds `Manifest/module.json` in the target's folder.
        .plugin(name: "DenManifestPlugin", capability: .buildTool(), dependencies: ["den-manifest-swift"],
                path: "Sources/DenManifestPlugin"),
        .testTarget(name: "DenManifestCodegenTests", dependencies: ["DenManifestCodegen", "DenKit", "DenRouting"]),

    ] + module("About") + module("Main") + module("Login") + module("Jogs") + [
        // The isolation tests' fault module in Swift, laid out like a bundled module (layers, Entry,
        // Manifest) and built on DenKit alone. A product of this package rather than a package the
        // tests build (as the `den new-module` tests do): it reuses the DenKit den is built with,
        // where a package of its own would compile DenKit again, minutes on a busy machine.
    ] + module("SwiftFaults", path: "Tests/SwiftFaultsFixture") + [
        // The tests' process starter: posix_spawn with pipe2 and closefrom (Tests/DenTestSupport/Spawn.swift).
        .target(name: "CDenTestSpawn", path: "Tests/CDenTestSpawn"),
        // Finds the built `den` and plugins, makes temp folders, runs processes.
        .target(name: "DenTestSupport", dependencies: ["CDenTestSpawn", "DenHost", "DenIsolation", "DenHotSwap", "DenAccounts", "DenLibraryContracts", "DenSupport", .product(name: "Logging", package: "swift-log", condition: host)], path: "Tests/DenTestSupport"),
        .testTarget(name: "DenKitTests", dependencies: ["DenKit", "DenTestSupport"]),
        .testTarget(name: "DenRoutingTests", dependencies: ["DenRouting"]),
        .testTarget(name: "DenTrustTests", dependencies: ["DenTrust", "DenHost", "DenIsolation", "DenHotSwap", "DenKit", "DenTestSupport"]),
        .testTarget(name: "DenSupportTests", dependencies: ["DenSupport", "DenKit", "DenTestSupport"]),
        .testTarget(name: "DenLibraryClientsTests", dependencies: ["DenLibraryClients", "DenLibraryContracts", "CDenLibraries", "DenKit", "DenTestSupport"]),
        .testTarget(name: "DenAccountsTests", dependencies: ["DenAccounts", "DenLibraryContracts", "DenKit", "DenTestSupport"]),
        .testTarget(name: "DenExportsTests", dependencies: ["DenExports", "CDenABI", "CFFI", "DenKit"]),
        .testTarget(name: "DenHotSwapTests", dependencies: ["DenHotSwap", "DenHost", "DenKit", "DenTestSupport"]),
        .testTarget(name: "DenIsolationTests", dependencies: ["DenIsolation", "DenHost", "DenHotSwap", "DenKit", "DenSupport", "DenTestSupport", "CDenABI"]),
        .testTarget(name: "DenCatalogTests", dependencies: ["DenCatalog", "DenModuleFiles", "DenKit"]),
        .testTarget(name: "DenModuleFilesTests", dependencies: ["DenModuleFiles", "DenKit", "DenSupport", "DenTestSupport", "CDenABI"]),
        .testTarget(name: "DenHostTests", dependencies: ["DenHost", "DenPermissions", "DenModuleFiles", "DenHotSwap", "DenAccounts", "DenExports", "DenSupport", "DenLibraryClients", "CDenABI", "DenSQLiteEngine", "DenPostgresEngine", "DenKit", "DenTestSupport",
                                                     .product(name: "Logging", package: "swift-log", condition: host)]),
        .testTarget(name: "DenMetricsTests", dependencies: ["DenMetrics", "DenHost", "CDenABI"]),
        .testTarget(name: "DenTracingTests", dependencies: ["DenTracing", "DenHost",
                                                            .product(name: "Tracing", package: "swift-distributed-tracing"),
                                                            .product(name: "InMemoryTracing", package: "swift-distributed-tracing")]),
        .testTarget(name: "DenTerminalTests", dependencies: ["DenTerminal", "DenTerminalText", "DenHost", "DenKit", "DenTestSupport"]),
        .testTarget(name: "DenWebTests", dependencies: ["DenWeb", "DenWebPages", "DenHost", "DenAccounts", "DenSupport", "DenKit", "DenTestSupport",
                                                    .product(name: "HummingbirdTesting", package: "hummingbird", condition: host)]),
        .testTarget(name: "AboutModuleTests", dependencies: ["AboutModule", "DenKit"]),
        .testTarget(name: "MainModuleTests", dependencies: ["MainModule", "DenKit"]),
        .testTarget(name: "LoginModuleTests", dependencies: ["LoginModule", "DenKit"]),
        .testTarget(name: "JogsModuleTests", dependencies: ["JogsModule", "DenKit"]),
        .testTarget(name: "EndToEndTests", dependencies: ["DenTestSupport"]),
        // README's target table held against this file and every target's imports.
        .testTarget(name: "ArchitectureTests", dependencies: ["DenTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
