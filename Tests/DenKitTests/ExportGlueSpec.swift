import CDenABI
@testable import DenKit
import Foundation
import Testing

/// Plays the host's part of den_module.h in-process: a `den_registrar` whose C callbacks record
/// into this object (reached through `ctx`), and a `den_host` whose `call` records service calls.
final class FakeHostSide {
    struct Description: Equatable {
        var id: String
        var version: String
        var summary: String
    }

    struct Route {
        var pattern: String
        /// What add_route_with_flags received; nil for plain add_route.
        var flags: UInt32? = nil
        var build: den_builder_fn
        var context: UnsafeMutableRawPointer?
    }

    var descriptions: [Description] = []
    var routes: [Route] = []
    var serviceCalls: [(service: String, request: String)] = []
    /// What add_export received: "name signature".
    var exports: [String] = []
    /// What `describe` answers (e.g. to play a host that rejects the id).
    var describeStatus = Int32(DEN_OK.rawValue)
    /// The `den_host` handed to the module; "valid for the process lifetime", so never freed.
    let host: UnsafeMutablePointer<den_host>

    init(abiVersion: UInt32 = DEN_ABI_VERSION, abiRevision: UInt32 = DEN_ABI_REVISION) {
        host = .allocate(capacity: 1)
        host.initialize(to: den_host(abi_version: abiVersion, abi_revision: abiRevision, ctx: nil, call: { ctx, service, request, response in
            let side = FakeHostSide.from(ctx)
            let text = String(decoding: OwnedBuffer.copy(request), as: UTF8.self)
            side.serviceCalls.append((service.map { String(cString: $0) } ?? "", text))
            response?.pointee = OwnedBuffer.make(#"{"echo":\#(text)}"#)
            return Int32(DEN_OK.rawValue)
        }))
        // Unretained: the tests keep the object alive for as long as the module may call back.
        host.pointee.ctx = Unmanaged.passUnretained(self).toOpaque()
    }

    static func from(_ ctx: UnsafeMutableRawPointer?) -> FakeHostSide {
        Unmanaged<FakeHostSide>.fromOpaque(ctx!).takeUnretainedValue()
    }

    /// Calls the module's entry point with this host and a recording registrar.
    func enter(_ module: ModuleDefinition, addRoute: Bool = true) -> Int32 {
        var registrar = den_registrar(
            ctx: Unmanaged.passUnretained(self).toOpaque(),
            describe: { ctx, id, version, summary in
                let side = FakeHostSide.from(ctx)
                side.descriptions.append(Description(id: String(cString: id!), version: String(cString: version!),
                                                     summary: String(cString: summary!)))
                return side.describeStatus
            },
            add_route: { ctx, pattern, build, builderContext in
                FakeHostSide.from(ctx).routes.append(Route(pattern: String(cString: pattern!), build: build!,
                                                           context: builderContext))
                return Int32(DEN_OK.rawValue)
            },
            add_route_with_flags: { ctx, pattern, flags, build, builderContext in
                FakeHostSide.from(ctx).routes.append(Route(pattern: String(cString: pattern!), flags: flags, build: build!,
                                                           context: builderContext))
                return Int32(DEN_OK.rawValue)
            },
            add_export: { ctx, name, signature, _, _ in
                FakeHostSide.from(ctx).exports.append("\(String(cString: name!)) \(String(cString: signature!))")
                return Int32(DEN_OK.rawValue)
            })
        // A revision-0 host's registrar ends before add_route_with_flags: play that with NULL.
        if host.pointee.abi_revision == 0 { registrar.add_route_with_flags = nil }
        if host.pointee.abi_revision < 2 { registrar.add_export = nil }
        if !addRoute { registrar.add_route = nil }
        return withUnsafePointer(to: &registrar) { registrar in
            DenModule.entry(host: UnsafeRawPointer(host), registrar: UnsafeRawPointer(registrar), module: module)
        }
    }

    struct Built {
        var status: Int32
        var instance: UnsafeMutableRawPointer?
        var api: UnsafePointer<den_instance_api>?
        var error: String
    }

    /// Calls a recorded builder the way the host does.
    func build(_ route: Route, params: String) -> Built {
        var instance: UnsafeMutableRawPointer?
        var api: UnsafePointer<den_instance_api>?
        var error = den_owned(ptr: nil, len: 0, release: nil)
        let status = OwnedBuffer.borrow(Data(params.utf8)) { bytes in
            route.build(route.context, host, bytes, &instance, &api, &error)
        }
        return Built(status: status, instance: instance, api: api,
                     error: String(decoding: OwnedBuffer.take(&error), as: UTF8.self))
    }

    /// Sends one event document to a live instance; returns the status and the reply text.
    static func send(_ event: String, to built: Built) -> (status: Int32, reply: String) {
        var reply = den_owned(ptr: nil, len: 0, release: nil)
        let status = OwnedBuffer.borrow(Data(event.utf8)) { bytes in
            built.api!.pointee.handle!(built.instance, bytes, &reply)
        }
        return (status, String(decoding: OwnedBuffer.take(&reply), as: UTF8.self))
    }
}

func denStatus(_ status: den_status) -> Int32 { Int32(status.rawValue) }

/// Builds instances that show their context, can be observed going away, and can call the host.
struct ProbeModule {
    let life = LifeProbe()

    var definition: ModuleDefinition {
        let life = life
        return ModuleDefinition(id: "probe", version: "0.3.1", summary: "Records how it is used", routes: [
            RouteDefinition("probe") { RecordingInstance($0, life: life) },
            RouteDefinition("probe/<int:id>") { context in
                if context.parameters["id"] == "0" { throw ModuleError.invalidParameter("x") }
                return RecordingInstance(context, life: life)
            },
            RouteDefinition("probe/host") { context in
                let answer = try context.host.call("echo.test", request: Data(#"{"ping":1}"#.utf8))
                return RecordingInstance(BuildContext(route: String(decoding: answer, as: UTF8.self), pattern: "",
                                                      parameters: [:], query: [:], host: context.host))
            },
            RouteDefinition("probe/fails") { _ in throw ModuleError.failed("the disk is on fire") },
        ])
    }
}

@Suite("C export glue (den_module_entry and friends), driven without a host process")
struct ExportGlueSpec {
    let probe = ProbeModule()

    @Test("the entry point describes the module, then adds every route pattern in order")
    func entryRegisters() {
        let side = FakeHostSide()

        let status = side.enter(probe.definition)

        #expect(status == denStatus(DEN_OK))
        #expect(side.descriptions == [.init(id: "probe", version: "0.3.1", summary: "Records how it is used")])
        #expect(side.routes.map(\.pattern) == ["probe", "probe/<int:id>", "probe/host", "probe/fails"])
        #expect(side.routes.allSatisfy { $0.context != nil })
    }

    @Test("a guarded route goes through add_route_with_flags with DEN_ROUTE_REQUIRES_LOGIN; the others through add_route")
    func guardedRoutesUseFlags() {
        let side = FakeHostSide()
        let module = ModuleDefinition(id: "vault", version: "1.0.0", summary: "Guarded", routes: [
            RouteDefinition("vault/open") { RecordingInstance($0, life: LifeProbe()) },
            RouteDefinition("vault", requiresLogin: true) { RecordingInstance($0, life: LifeProbe()) },
        ])

        #expect(side.enter(module) == denStatus(DEN_OK))
        #expect(side.routes.map(\.pattern) == ["vault/open", "vault"])
        #expect(side.routes.map(\.flags) == [nil, UInt32(DEN_ROUTE_REQUIRES_LOGIN.rawValue)])
    }

    @Test("on a revision-0 host a module with a guarded route refuses to load (DEN_ERR_VERSION) and logs why")
    func guardedRouteNeedsRevisionOne() {
        let side = FakeHostSide(abiRevision: 0)
        let module = ModuleDefinition(id: "vault", version: "1.0.0", summary: "Guarded", routes: [
            RouteDefinition("vault", requiresLogin: true) { RecordingInstance($0, life: LifeProbe()) },
        ])

        #expect(side.enter(module) == denStatus(DEN_ERR_VERSION))
        #expect(side.routes.isEmpty)
        #expect(side.serviceCalls.contains { $0.service == "log" && $0.request.contains("route guards") })
    }

    @Test("on a revision-0 host a module without guarded routes loads as before")
    func unguardedModuleOnRevisionZero() {
        let side = FakeHostSide(abiRevision: 0)
        #expect(side.enter(probe.definition) == denStatus(DEN_OK))
        #expect(side.routes.allSatisfy { $0.flags == nil })
    }

    @Test("a host speaking another ABI version gets DEN_ERR_VERSION before anything is registered",
          arguments: [0 as UInt32, 2, 99])
    func wrongABIVersion(version: UInt32) {
        let side = FakeHostSide(abiVersion: version)

        #expect(side.enter(probe.definition) == denStatus(DEN_ERR_VERSION))
        #expect(side.descriptions.isEmpty)
        #expect(side.routes.isEmpty)
    }

    @Test("null host or registrar pointers are invalid arguments")
    func nullPointers() {
        let side = FakeHostSide()

        #expect(DenModule.entry(host: nil, registrar: UnsafeRawPointer(side.host), module: probe.definition)
                == denStatus(DEN_ERR_INVALID_ARGUMENT))
        #expect(DenModule.entry(host: UnsafeRawPointer(side.host), registrar: nil, module: probe.definition)
                == denStatus(DEN_ERR_INVALID_ARGUMENT))
    }

    @Test("a registrar without add_route is an invalid argument")
    func missingCallback() {
        let side = FakeHostSide()

        #expect(side.enter(probe.definition, addRoute: false) == denStatus(DEN_ERR_INVALID_ARGUMENT))
        #expect(side.routes.isEmpty)
    }

    @Test("when describe is refused the entry point returns that status and adds no routes")
    func describeRefused() {
        let side = FakeHostSide()
        side.describeStatus = denStatus(DEN_ERR_CONFLICT)

        #expect(side.enter(probe.definition) == denStatus(DEN_ERR_CONFLICT))
        #expect(side.routes.isEmpty)
    }

    @Test("DenKit speaks the header's ABI version and names its toolchain")
    func exportedConstants() {
        #expect(DenModule.abiVersion == DEN_ABI_VERSION)
        #expect(DenModule.toolchain.contains("clang"))
    }

    @Test("a recorded builder makes an instance that answers appear with a reply document, then is destroyed")
    func buildHandleDestroy() throws {
        let side = FakeHostSide()
        #expect(side.enter(probe.definition) == denStatus(DEN_OK))
        let route = try #require(side.routes.first { $0.pattern == "probe/<int:id>" })

        let built = side.build(route, params: #"{"route":"probe/42?x=1","pattern":"probe/<int:id>","parameters":{"id":"42"},"query":{"x":"1"}}"#)

        #expect(built.status == denStatus(DEN_OK))
        #expect(built.error.isEmpty)
        let api = try #require(built.api)
        #expect(built.instance != nil)
        #expect(api.pointee.struct_size == UInt32(MemoryLayout<den_instance_api>.size))
        #expect(api.pointee.handle != nil && api.pointee.snapshot != nil && api.pointee.restore != nil && api.pointee.destroy != nil)

        let (status, text) = FakeHostSide.send(#"{"v":1,"type":"appear"}"#, to: built)
        #expect(status == denStatus(DEN_OK))
        let reply = try WireJSON.decode(ModuleReply.self, text)
        #expect(reply.screen.title == "probe/42?x=1")
        #expect(reply.screen.elements == [.text("pattern probe/<int:id>"), .text("parameters id=42"),
                                          .text("query x=1"), .text("event appear")])
        #expect(reply.effects.isEmpty)

        #expect(!probe.life.isGone)
        api.pointee.destroy!(built.instance)
        #expect(probe.life.isGone, "destroy frees the instance")
    }

    @Test("an action event reaches the instance with its fields")
    func actionEvent() throws {
        let side = FakeHostSide()
        _ = side.enter(probe.definition)
        let built = side.build(side.routes[0], params: #"{"route":"probe","pattern":"probe","parameters":{},"query":{}}"#)
        defer { built.api?.pointee.destroy?(built.instance) }

        let (status, text) = FakeHostSide.send(#"{"v":1,"type":"action","id":"save","fields":{"a":"1"}}"#, to: built)

        #expect(status == denStatus(DEN_OK))
        let reply = try WireJSON.decode(ModuleReply.self, text)
        #expect(reply.screen.elements.last == .text("event \(ModuleEvent.action(id: "save", fields: ["a": "1"]))"))
    }

    @Test("a malformed event is refused with DEN_ERR_INVALID_ARGUMENT and a readable message; the instance stays usable")
    func malformedEvent() throws {
        let side = FakeHostSide()
        _ = side.enter(probe.definition)
        let built = side.build(side.routes[0], params: #"{"route":"probe","pattern":"probe","parameters":{},"query":{}}"#)
        defer { built.api?.pointee.destroy?(built.instance) }

        let bad = FakeHostSide.send(#"{"v":1,"type":"tap"}"#, to: built)
        #expect(bad.status == denStatus(DEN_ERR_INVALID_ARGUMENT))
        #expect(bad.reply.contains("unknown event type 'tap'"), "\(bad.reply)")

        let newer = FakeHostSide.send(#"{"v":99,"type":"appear"}"#, to: built)
        #expect(newer.status == denStatus(DEN_ERR_INVALID_ARGUMENT))
        #expect(newer.reply.contains("99"))

        #expect(FakeHostSide.send(#"{"type":"appear"}"#, to: built).status == denStatus(DEN_OK))
    }

    @Test("snapshot and restore of a stateless instance answer DEN_ERR_UNSUPPORTED")
    func stateless() throws {
        let side = FakeHostSide()
        _ = side.enter(probe.definition)
        let built = side.build(side.routes[0], params: #"{"route":"probe","pattern":"probe","parameters":{},"query":{}}"#)
        let api = try #require(built.api)
        defer { api.pointee.destroy?(built.instance) }

        var state = den_owned(ptr: nil, len: 0, release: nil)
        #expect(api.pointee.snapshot!(built.instance, &state) == denStatus(DEN_ERR_UNSUPPORTED))
        #expect(!String(decoding: OwnedBuffer.take(&state), as: UTF8.self).isEmpty, "the refusal says why")
        let restored = OwnedBuffer.borrow(Data("old".utf8)) { api.pointee.restore!(built.instance, $0) }
        #expect(restored == denStatus(DEN_ERR_UNSUPPORTED))
    }

    @Test("a builder throwing invalidParameter returns DEN_ERR_INVALID_ARGUMENT with the message in the error buffer")
    func builderRejectsParameter() throws {
        let side = FakeHostSide()
        _ = side.enter(probe.definition)
        let route = try #require(side.routes.first { $0.pattern == "probe/<int:id>" })

        let built = side.build(route, params: #"{"route":"probe/0","pattern":"probe/<int:id>","parameters":{"id":"0"},"query":{}}"#)

        #expect(built.status == denStatus(DEN_ERR_INVALID_ARGUMENT))
        #expect(built.error == "x")
        #expect(built.instance == nil)
        #expect(built.api == nil)
    }

    @Test("a builder failing otherwise returns DEN_ERR_INTERNAL with its message")
    func builderFails() throws {
        let side = FakeHostSide()
        _ = side.enter(probe.definition)
        let route = try #require(side.routes.first { $0.pattern == "probe/fails" })

        let built = side.build(route, params: #"{"route":"probe/fails","pattern":"probe/fails","parameters":{},"query":{}}"#)

        #expect(built.status == denStatus(DEN_ERR_INTERNAL))
        #expect(built.error == "the disk is on fire")
    }

    @Test("unreadable build parameters are refused with DEN_ERR_INVALID_ARGUMENT naming what is missing")
    func badParams() {
        let side = FakeHostSide()
        _ = side.enter(probe.definition)

        let built = side.build(side.routes[0], params: #"{"route":"probe","pattern":"probe","query":{}}"#)

        #expect(built.status == denStatus(DEN_ERR_INVALID_ARGUMENT))
        #expect(built.error.contains("parameters"), "\(built.error)")
        #expect(built.instance == nil)
    }

    @Test("a builder reaches host services through the den_host given to the entry point")
    func hostServices() throws {
        let side = FakeHostSide()
        _ = side.enter(probe.definition)
        let route = try #require(side.routes.first { $0.pattern == "probe/host" })

        let built = side.build(route, params: #"{"route":"probe/host","pattern":"probe/host","parameters":{},"query":{}}"#)
        defer { built.api?.pointee.destroy?(built.instance) }

        #expect(built.status == denStatus(DEN_OK), "\(built.error)")
        #expect(side.serviceCalls.map(\.service) == ["echo.test"])
        #expect(side.serviceCalls.first?.request == #"{"ping":1}"#)
        let reply = try WireJSON.decode(ModuleReply.self, FakeHostSide.send(#"{"type":"appear"}"#, to: built).reply)
        #expect(reply.screen.title == #"{"echo":{"ping":1}}"#)
    }
}
