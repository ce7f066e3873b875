import DenKit

/// A module that fails on purpose, written in Swift on DenKit alone as any module author writes
/// one: the isolation tests' Swift counterpart of the C fault module (docs/ISOLATION.md, "Tests").
/// Run it only isolated (`--isolate swift-faults`): in-process, each fault ends den.
/// Manifest/module.json says the same.
public let swiftFaultsModule = ModuleDefinition(
    id: "swift-faults", version: "1.0.0", summary: "Fails on purpose in Swift, for the isolation tests",
    routes: [RouteDefinition("swift-faults", builder: SwiftFaultsBuilder.self)])
