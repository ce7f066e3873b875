// swift-tools-version: 6.0
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
        // A real module would name DenKit's repository and a version here.
        .package(name: "Den", path: "../.."),
    ],
    targets: [
        .target(name: "GreeterModule", dependencies: [.product(name: "DenKit", package: "Den")]),
        .target(name: "GreeterModuleEntry",
                dependencies: ["GreeterModule", .product(name: "DenKit", package: "Den")],
                linkerSettings: pluginLinkerFlags),
    ],
    swiftLanguageModes: [.v6]
)
