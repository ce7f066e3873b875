@testable import DenHost
import Foundation
import Testing

/// `PluginCache.stem(of:)` cuts a file name without Foundation's path machinery.
@Suite struct PluginFileStemSpec {
    @Test("a plugin file's stem is the name deletingPathExtension leaves", arguments: [
        "libAboutModule.so", "a b.so", ".so", "x.so", "lib.x.so", "libX.so.1", "noext", "ü.so", "a.SO",
    ])
    func stem(name: String) {
        #expect(PluginCache.stem(of: name) == URL(fileURLWithPath: "/tmp/\(name)").deletingPathExtension().lastPathComponent)
    }
}
