// swift-tools-version: 6.1
// A third-party Den module in its own package: it depends on DenKit alone and is built without
// the host. Build it, then point an already-built `den` at the folder that holds the library:
//
//   swift build --package-path Examples/Greeter
//   den render hello/Ada --plugin-dir Examples/Greeter/.build/debug
import PackageDescription

/// Never unloaded, and binds its own symbols to itself (see the Den README, "Adding a module").
let pluginLinkerFlags: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "-z", "-Xlinker", "nodelete", "-Xlinker", "-Bsymbolic"]),
]

let package = Package(
    name: "Greeter",
    products: [
        .library(name: "GreeterModule", type: .dynamic, targets: ["GreeterModuleEntry"]),
    ],
    dependencies: [
        // A real module would name Den's repository and a version here. `traits: []` leaves out
        // Den's host, so SwiftPM resolves no other package.
        .package(name: "Den", path: "../..", traits: []),
    ],
    targets: [
        // The VIPER layers. DenManifestPlugin generates the id, the routes (one typed builder each,
        // which GreeterBuilder implements) and the rest from Manifest/module.json at build time.
        .target(name: "GreeterModule", dependencies: [.product(name: "DenKit", package: "Den")],
                exclude: ["Manifest"], plugins: [.plugin(name: "DenManifestPlugin", package: "Den")]),
        .target(name: "GreeterModuleEntry",
                dependencies: ["GreeterModule", "GreeterModuleManifest", .product(name: "DenKit", package: "Den")],
                linkerSettings: pluginLinkerFlags),
        // `den_manifest`: the same module.json built into the library, so den reads it without loading the module.
        .target(name: "GreeterModuleManifest", path: "Sources/GreeterModule/Manifest", exclude: ["module.json"],
                publicHeadersPath: "."),
    ],
    swiftLanguageModes: [.v6]
)
