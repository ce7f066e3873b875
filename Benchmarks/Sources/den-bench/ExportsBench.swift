import DenHost
import DenKit
import Foundation

/// What calling a module's export costs (Tests/Fixtures/DenFixtureExports, module "exporter"):
///   direct    the export's C function through a typed function pointer (the baseline)
///   host      `DenRuntime.callExport(_:arguments:)`: lookup, checks against the signature, and
///             `ffi_call` with the interface prepared at registration
///   service   `exports.call` through the service hub, as a module calls it: JSON in, JSON out
/// for `add(i64 a, i64 b) -> i64` and `greet(string name) -> string` (a string copied in, an
/// owned string copied out and released).
struct ExportsBench {
    var plugin: URL
    /// Calls per sample; each figure is the median over the samples of (sample time / calls).
    var batch: Int
    var samples: Int
    var workDirectory: URL

    struct Figures {
        var direct = Samples()
        var host = Samples()
        var service = Samples()
    }

    struct Result {
        var add = Figures()
        var greet = Figures()
        var failures: [String] = []
    }

    typealias AddFunction = @convention(c) (UnsafeRawPointer?, Int64, Int64, UnsafeMutablePointer<Int64>?, UnsafeMutableRawPointer?) -> Int32
    /// den_owned is {ptr, len, release}: three words.
    typealias GreetFunction = @convention(c) (UnsafeRawPointer?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32

    struct OwnedWords {
        var ptr: UnsafeMutablePointer<UInt8>?
        var len: Int
        var release: (@convention(c) (UnsafeMutablePointer<UInt8>?, Int) -> Void)?
    }

    func run() throws -> Result {
        let plugins = workDirectory.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: plugin, to: plugins.appendingPathComponent(plugin.lastPathComponent))
        let runtime = DenRuntime(configuration: HostConfiguration(
            pluginDirectories: [plugins], bundledDirectory: nil,
            cacheDirectory: workDirectory.appendingPathComponent("cache"), dataDirectory: workDirectory.appendingPathComponent("data")))
        runtime.loadPlugins()
        var result = Result()
        guard let add = runtime.exports.first(where: { $0.name == "exporter.add" }),
              let greet = runtime.exports.first(where: { $0.name == "exporter.greet" }) else {
            result.failures.append("the exporter fixture did not load: \(runtime.registry.plugins.compactMap(\.error))")
            return result
        }
        let addDirect = unsafeBitCast(add.address, to: AddFunction.self)
        let greetDirect = unsafeBitCast(greet.address, to: GreetFunction.self)
        let caller = ServiceCaller(moduleID: "bench")
        let addRequest = Data(#"{"name":"exporter.add","arguments":[40,2]}"#.utf8)
        let greetRequest = Data(#"{"name":"exporter.greet","arguments":["Ada"]}"#.utf8)
        var sink: Int64 = 0

        func time(_ body: () -> Void) -> Double {
            let start = nowNanoseconds()
            for _ in 0..<batch { body() }
            return Double(nowNanoseconds() - start) / Double(batch)
        }

        for round in 0..<(samples + 3) {
            let warm = round >= 3
            let directAdd = time {
                var value: Int64 = 0
                _ = addDirect(add.moduleHost, 40, 2, &value, nil)
                sink &+= value
            }
            let hostAdd = time {
                if case .success(.i64(let value)) = runtime.callExport("exporter.add", arguments: [.i64(40), .i64(2)]) { sink &+= value }
            }
            let serviceAdd = time { sink &+= Int64(runtime.services.call("exports.call", request: addRequest, caller: caller).body.count) }
            let directGreet = time {
                var owned = OwnedWords(ptr: nil, len: 0, release: nil)
                var error = OwnedWords(ptr: nil, len: 0, release: nil)
                withUnsafeMutablePointer(to: &owned) { ownedPointer in
                    withUnsafeMutablePointer(to: &error) { errorPointer in
                        _ = "Ada".withCString { greetDirect(greet.moduleHost, $0, UnsafeMutableRawPointer(ownedPointer), UnsafeMutableRawPointer(errorPointer)) }
                    }
                }
                // The same work the host does with the result: copy it into a String, release it.
                if let ptr = owned.ptr {
                    sink &+= Int64(String(decoding: UnsafeBufferPointer(start: ptr, count: owned.len), as: UTF8.self).utf8.count)
                    owned.release?(ptr, owned.len)
                }
            }
            let hostGreet = time {
                if case .success(.string(let text)) = runtime.callExport("exporter.greet", arguments: [.string("Ada")]) { sink &+= Int64(text.utf8.count) }
            }
            let serviceGreet = time { sink &+= Int64(runtime.services.call("exports.call", request: greetRequest, caller: caller).body.count) }
            guard warm else { continue }
            result.add.direct.add(directAdd)
            result.add.host.add(hostAdd)
            result.add.service.add(serviceAdd)
            result.greet.direct.add(directGreet)
            result.greet.host.add(hostGreet)
            result.greet.service.add(serviceGreet)
        }
        if sink == 0 { result.failures.append("no call returned anything") }
        if case .success(.i64(42)) = runtime.callExport("exporter.add", arguments: [.i64(40), .i64(2)]) {} else {
            result.failures.append("exporter.add through the host did not answer 42")
        }
        return result
    }
}
