import DenHost
import DenKit
import Foundation

/// What checking permissions costs a module's service call (docs/PERMISSIONS.md): a
/// `storage.get` round trip through the runtime's services, and an `http.get` that 127.0.0.1
/// refuses (nothing listens on port 1), each made as a module whose manifest asks for the host
/// (checked) and as den's own call (never checked), in rotation.
struct PermissionBench {
    var storageCalls: Int
    var httpCalls: Int
    var workDirectory: URL

    struct Result {
        var storageChecked = Samples()
        var storageUnchecked = Samples()
        var httpChecked = Samples()
        var httpUnchecked = Samples()
        var failures: [String] = []
    }

    func run() throws -> Result {
        let runtime = DenRuntime(configuration: HostConfiguration(
            pluginDirectories: [], bundledDirectory: nil,
            cacheDirectory: workDirectory.appendingPathComponent("cache"), dataDirectory: workDirectory.appendingPathComponent("data")))
        let checked = ServiceCaller(moduleID: "bench", permissions: ModulePermissions(http: ["127.0.0.1"]))
        let unchecked = ServiceCaller(moduleID: "bench")
        var result = Result()
        _ = runtime.services.call("storage.set", request: Data(#"{"key": "k", "value": "a value of some length"}"#.utf8), caller: unchecked)
        let get = Data(#"{"key": "k"}"#.utf8)
        let fetch = Data(#"{"url": "http://127.0.0.1:1/", "timeout_ms": 2000}"#.utf8)
        func timed(_ operation: String, _ request: Data, _ caller: ServiceCaller, expect: Int32) -> UInt64 {
            let start = nowNanoseconds()
            let (status, body) = runtime.services.call(operation, request: request, caller: caller)
            let elapsed = nowNanoseconds() - start
            if Int32(status.rawValue) != expect { result.failures.append("\(operation): status \(status.rawValue): \(String(decoding: body.prefix(200), as: UTF8.self))") }
            return elapsed
        }
        for round in 0..<(storageCalls + 50) {
            let first = round % 2 == 0
            let a = timed("storage.get", get, first ? checked : unchecked, expect: 0)
            let b = timed("storage.get", get, first ? unchecked : checked, expect: 0)
            guard round >= 50 else { continue }
            result.storageChecked.add(first ? a : b)
            result.storageUnchecked.add(first ? b : a)
        }
        for round in 0..<(httpCalls + 10) {
            let first = round % 2 == 0
            let a = timed("http.get", fetch, first ? checked : unchecked, expect: 6)
            let b = timed("http.get", fetch, first ? unchecked : checked, expect: 6)
            guard round >= 10 else { continue }
            result.httpChecked.add(first ? a : b)
            result.httpUnchecked.add(first ? b : a)
        }
        return result
    }
}
