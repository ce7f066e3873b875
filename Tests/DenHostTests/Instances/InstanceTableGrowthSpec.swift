import CDenABI
@testable import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

/// den_instance_api only grows at its end (docs/ABI.md, "Revisions"): a module built against an
/// older den_module.h hands over a smaller table and keeps working on every later host. The
/// old-layout fixture is compiled against a copy of the revision-3 header
/// (Tests/Fixtures/abi-revision-3) and lays its 40-byte table right before an unmapped page, so a
/// host that read one field too far would crash this test process.
@Suite("An instance table that grows")
struct InstanceTableGrowthSpec {
    let folder: PluginFolder
    let log = CapturedLog()

    init() throws {
        folder = try PluginFolder()
        try folder.add("DenFixtureOldLayout")
        try folder.add("DenFixtureStateVersion")
    }

    func runtime(isolate: Set<String> = []) -> DenRuntime {
        if !isolate.isEmpty { return isolatingRuntime(folder, log: log, isolate: isolate) }
        let configuration = HostConfiguration(pluginDirectories: [folder.plugins], bundledDirectory: nil,
                                              cacheDirectory: folder.temp.path("cache"), dataDirectory: folder.temp.path("data"))
        let runtime = DenRuntime(configuration: configuration, logger: log.logger)
        runtime.loadPlugins()
        return runtime
    }

    @Test("a module built against the revision-3 header opens, handles events and keeps its state across a save",
          arguments: [false, true])
    func olderTable(isolated: Bool) throws {
        let runtime = runtime(isolate: isolated ? ["old-layout"] : [])
        let session = runtime.makeSession()
        #expect(session.open("old-layout").screen.texts == ["count 0, snapshots 0"], "\(session.current?.errors ?? [])")
        #expect(session.send(action: "count", fields: [:]).screen.texts.first?.hasPrefix("count 1,") == true)
        let saved = session.saved()
        let restored = runtime.makeSession()
        restored.restore(saved)
        #expect(restored.send(action: "count", fields: [:]).screen.texts.first?.hasPrefix("count 2,") == true)
        #expect(log.lines.allSatisfy { !$0.message.contains("instance API table") }, "\(log.lines.map(\.message))")
    }

    @Test("without state_version a save asks for a snapshot only of an instance called since the last one")
    func noStateVersion() {
        let session = runtime().makeSession()
        _ = session.open("old-layout")
        _ = session.saved()
        _ = session.saved()
        #expect(session.send(action: "look", fields: [:]).screen.texts == ["count 0, snapshots 1"], "the second save reused the first's bytes")
        _ = session.saved() // "look" was a call: snapshot again
        #expect(session.send(action: "look", fields: [:]).screen.texts == ["count 0, snapshots 2"])
    }

    @Test("with state_version a screen whose number did not change is not asked for its snapshot again")
    func stateVersionSkipsUnchanged() throws {
        let session = runtime().makeSession()
        _ = session.open("versioned")
        let first = session.saved()
        let second = session.saved()
        #expect(first == second, "the bytes taken at the first save are reused")
        #expect(session.send(action: "look", fields: [:]).screen.texts == ["count 0, snapshots 1"])
        #expect(session.send(action: "count", fields: [:]).screen.texts == ["count 1, snapshots 1"])
        let changed = session.saved()
        _ = session.saved()
        #expect(session.send(action: "look", fields: [:]).screen.texts == ["count 1, snapshots 2"])
        #expect(changed != first, "a changed state is snapshot afresh")
    }

    @Test("a table smaller than revision 0's is refused, naming both sizes")
    func tooSmall() throws {
        var table = den_instance_api()
        table.struct_size = 8
        #expect(throws: InstanceFunctions.Refusal.tooSmall(8)) { try InstanceFunctions.read(&table) }
        #expect(InstanceFunctions.Refusal.tooSmall(8).text.contains("struct_size (8) is below revision 0's 40 bytes"))
        #expect(InstanceFunctions.firstRevisionSize == 40)
    }

    @Test("a field past struct_size counts as NULL even when the bytes there are not zero")
    func fieldPastTheEnd() throws {
        let handle: InstanceFunctions.Handle = { _, _, _ in 0 }
        let destroy: InstanceFunctions.Destroy = { _ in }
        let version: InstanceFunctions.StateVersion = { _ in 7 }
        var table = den_instance_api(struct_size: UInt32(InstanceFunctions.firstRevisionSize), reserved: 0, handle: handle,
                                     snapshot: nil, restore: nil, destroy: destroy, state_version: version)
        #expect(try InstanceFunctions.read(&table).stateVersion == nil)
        table.struct_size = UInt32(MemoryLayout<den_instance_api>.size)
        #expect(try InstanceFunctions.read(&table).stateVersion != nil)
    }
}
