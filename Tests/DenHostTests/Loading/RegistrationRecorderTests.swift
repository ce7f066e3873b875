import CDenABI
@testable import DenHost
import Foundation
import Testing

/// What a plugin's entry point may and may not do with the registrar, driven through the real
/// C callbacks the host hands to plugins.
@Suite("Registration through den_registrar")
struct RegistrationRecorderTests {
    /// A builder that is never called in these tests.
    static let unusedBuilder: den_builder_fn = { _, _, _, _, _, _ in Int32(DEN_ERR_UNSUPPORTED.rawValue) }

    func register(_ body: (UnsafePointer<den_registrar>) -> Void) -> RegistrationRecorder {
        let recorder = RegistrationRecorder()
        recorder.withRegistrar(body)
        return recorder
    }

    func describe(_ registrar: UnsafePointer<den_registrar>, _ id: String, _ version: String = "1.0.0") -> Int32 {
        registrar.pointee.describe(registrar.pointee.ctx, id, version, "summary")
    }

    func addRoute(_ registrar: UnsafePointer<den_registrar>, _ pattern: String) -> Int32 {
        registrar.pointee.add_route(registrar.pointee.ctx, pattern, Self.unusedBuilder, nil)
    }

    @Test("describe then add_route records the module and its routes")
    func happyPath() {
        var statuses: [Int32] = []
        let recorder = register { registrar in
            statuses = [describe(registrar, "jogs", "2.1.0-beta+7"), addRoute(registrar, "jogs"), addRoute(registrar, "jogs/<int:id>")]
        }
        #expect(statuses == [0, 0, 0])
        #expect(recorder.id == "jogs")
        #expect(recorder.version == "2.1.0-beta+7")
        #expect(recorder.routes.map(\.pattern) == ["jogs", "jogs/<int:id>"])
        #expect(recorder.problems.isEmpty)
    }

    @Test("invalid module ids are refused with the rule", arguments: ["", "Jogs", "my module", "-jogs", String(repeating: "a", count: 65), "jögs"])
    func invalidIDs(id: String) {
        var status: Int32 = 0
        let recorder = register { status = describe($0, id) }
        #expect(status == Int32(DEN_ERR_INVALID_ARGUMENT.rawValue))
        #expect(recorder.id == nil)
        #expect(recorder.problems.first?.contains("is not valid") == true)
    }

    @Test("versions must be semantic versions", arguments: ["1", "1.2", "v1.2.3", "1.2.x", "1..3", "", "1.0.0-", "1.0.0-beta\u{1B}[2J", "1.0.0+build 7", "1.0.0-+", "1.0.0+a+b", "1.0.0-a+b+c", "1.0.0-rc+",
                                                               "1.0.0-" + String(repeating: "a", count: 60)])
    func invalidVersions(version: String) {
        var status: Int32 = 0
        let recorder = register { status = describe($0, "jogs", version) }
        #expect(status == Int32(DEN_ERR_INVALID_ARGUMENT.rawValue))
        #expect(recorder.problems.first?.contains("is not valid (a semantic version") == true)
    }

    @Test("describe may be called only once")
    func describeTwice() {
        var second: Int32 = 0
        let recorder = register { registrar in
            _ = describe(registrar, "jogs")
            second = describe(registrar, "other")
        }
        #expect(second == Int32(DEN_ERR_INVALID_ARGUMENT.rawValue))
        #expect(recorder.id == "jogs")
        #expect(recorder.problems == ["describe was called twice"])
    }

    @Test("add_route before describe is refused")
    func routeBeforeDescribe() {
        var status: Int32 = 0
        let recorder = register { status = addRoute($0, "jogs") }
        #expect(status == Int32(DEN_ERR_INVALID_ARGUMENT.rawValue))
        #expect(recorder.routes.isEmpty)
        #expect(recorder.problems == ["add_route was called before describe"])
    }

    @Test("a malformed pattern is refused with the router's explanation")
    func malformedPattern() {
        var status: Int32 = 0
        let recorder = register { registrar in
            _ = describe(registrar, "jogs")
            status = addRoute(registrar, "jogs/<float:x>")
        }
        #expect(status == Int32(DEN_ERR_INVALID_ARGUMENT.rawValue))
        #expect(recorder.routes.isEmpty)
        #expect(recorder.problems.first?.hasPrefix("route pattern 'jogs/<float:x>'") == true)
        #expect(recorder.problems.first?.contains("float") == true)
    }

    @Test("a call with a NULL ctx is refused and recorded against the entry point that made it")
    func nullContext() {
        var statuses: [Int32] = []
        let recorder = register { registrar in
            statuses.append(registrar.pointee.describe(nil, "jogs", "1.0.0", "Jogs"))
            statuses.append(registrar.pointee.add_route(nil, "jogs", Self.unusedBuilder, nil))
        }
        #expect(statuses == [Int32(DEN_ERR_INVALID_ARGUMENT.rawValue), Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)])
        #expect(recorder.id == nil)
        #expect(recorder.problems == ["describe was called with a NULL ctx: pass registrar->ctx as its first argument",
                                      "add_route was called with a NULL ctx: pass registrar->ctx as its first argument"])
    }

    @Test("a pattern that is not valid UTF-8 is refused, not repaired into another route")
    func patternNotUTF8() {
        var status: Int32 = 0
        let recorder = register { registrar in
            _ = describe(registrar, "jogs")
            let bytes: [CChar] = [CChar(bitPattern: 0x6A), CChar(bitPattern: 0xFF), CChar(bitPattern: 0xFE), 0] // "j\xff\xfe"
            status = registrar.pointee.add_route(registrar.pointee.ctx, bytes, Self.unusedBuilder, nil)
        }
        #expect(status == Int32(DEN_ERR_INVALID_ARGUMENT.rawValue))
        #expect(recorder.routes.isEmpty)
        #expect(recorder.problems == ["route pattern 'j\u{FFFD}\u{FFFD}' is not valid UTF-8; route patterns are UTF-8 text (den_module.h)"])
    }

    @Test("a kept registrar (pointer or copy) used after den_module_entry returned is refused, not a crash")
    func lateCalls() {
        var kept: UnsafePointer<den_registrar>?
        var copy: den_registrar?
        let recorder = register { registrar in
            _ = describe(registrar, "jogs")
            _ = addRoute(registrar, "jogs")
            kept = registrar
            copy = registrar.pointee
        }
        guard let kept, let copy else { Issue.record("the entry point did not run"); return }
        #expect(addRoute(kept, "late") == Int32(DEN_ERR_INVALID_ARGUMENT.rawValue))
        #expect(describe(kept, "other") == Int32(DEN_ERR_INVALID_ARGUMENT.rawValue))
        #expect(copy.add_route(copy.ctx, "late-copy", Self.unusedBuilder, nil) == Int32(DEN_ERR_INVALID_ARGUMENT.rawValue))
        #expect(recorder.routes.map(\.pattern) == ["jogs"])
        #expect(recorder.id == "jogs")
    }

    func addRoute(_ registrar: UnsafePointer<den_registrar>, _ pattern: String, flags: UInt32) -> Int32 {
        registrar.pointee.add_route_with_flags(registrar.pointee.ctx, pattern, flags, Self.unusedBuilder, nil)
    }

    @Test("add_route_with_flags records DEN_ROUTE_REQUIRES_LOGIN; no flags and plain add_route record an open route")
    func routeFlags() {
        var statuses: [Int32] = []
        let recorder = register { registrar in
            statuses = [describe(registrar, "jogs"),
                        addRoute(registrar, "jogs", flags: UInt32(DEN_ROUTE_REQUIRES_LOGIN.rawValue)),
                        addRoute(registrar, "jogs/about", flags: UInt32(DEN_ROUTE_FLAGS_NONE.rawValue)),
                        addRoute(registrar, "jogs/help")]
        }
        #expect(statuses == [0, 0, 0, 0])
        #expect(recorder.routes.map(\.pattern) == ["jogs", "jogs/about", "jogs/help"])
        #expect(recorder.routes.map(\.requiresLogin) == [true, false, false])
        #expect(recorder.problems.isEmpty)
    }

    @Test("an unknown flag bit is refused with DEN_ERR_UNSUPPORTED, naming the bits and the fix",
          arguments: [UInt32(1) << 1, UInt32(1) << 31, UInt32(DEN_ROUTE_REQUIRES_LOGIN.rawValue) | 0x80])
    func unknownFlags(flags: UInt32) {
        var status: Int32 = 0
        let recorder = register { registrar in
            _ = describe(registrar, "jogs")
            status = addRoute(registrar, "jogs", flags: flags)
        }
        let unknown = flags & ~UInt32(DEN_ROUTE_REQUIRES_LOGIN.rawValue)
        #expect(status == Int32(DEN_ERR_UNSUPPORTED.rawValue))
        #expect(recorder.routes.isEmpty, "no route is recorded without the guard its module asked for")
        #expect(recorder.problems.first?.contains("flag bits 0x\(String(unknown, radix: 16)) are unknown to this host") == true,
                "\(recorder.problems)")
        #expect(recorder.problems.first?.contains("drop those flags") == true)
    }

    @Test("prerelease and build labels of a version are accepted", arguments: ["1.0.0-rc.1", "10.20.30+build.5", "1.2.3-beta-2+exp.sha.5114f85"])
    func validVersions(version: String) {
        var status: Int32 = -1
        _ = register { status = describe($0, "jogs", version) }
        #expect(status == 0)
    }
}
