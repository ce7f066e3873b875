import DenHost
import DenKit
import Foundation

/// What checking permissions costs a module's service call (docs/PERMISSIONS.md): a
/// `storage.get` round trip through the runtime's services, and an `http.get` that 127.0.0.1
/// refuses (nothing listens on port 1), each made as a module whose manifest asks for the host
/// (checked) and as den's own call (never checked), in rotation.
struct PermissionBench {
    /// The folder of den and its helper libraries (storage, http transport), which this process
    /// loads as den does.
    var denBin: URL
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
        // Before any thread of this bench runs, and before either library is first looked for.
        setenv("DEN_STORAGE_LIBRARY", denBin.appendingPathComponent("libDenSQLiteStorage.so").path, 1)
        setenv("DEN_HTTP_TRANSPORT", denBin.appendingPathComponent("libDenHTTPTransport.so").path, 1)
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
            // The http call must reach the network and be refused there, not fail on the way.
            let reached = operation != "http.get" || String(decoding: body, as: UTF8.self).contains("connection refused")
            if Int32(status.rawValue) != expect || !reached { result.failures.append("\(operation): status \(status.rawValue): \(String(decoding: body.prefix(200), as: UTF8.self))") }
            return elapsed
        }
        // Checked and unchecked alternate, each going first every other round, after warm-ups.
        func alternate(_ rounds: Int, warmUp: Int, _ operation: String, _ request: Data, expect: Int32) -> (Samples, Samples) {
            var checkedTimes = Samples(), uncheckedTimes = Samples()
            for round in 0..<(rounds + warmUp) {
                let checkedFirst = round % 2 == 0
                let a = timed(operation, request, checkedFirst ? checked : unchecked, expect: expect)
                let b = timed(operation, request, checkedFirst ? unchecked : checked, expect: expect)
                guard round >= warmUp else { continue }
                checkedTimes.add(checkedFirst ? a : b)
                uncheckedTimes.add(checkedFirst ? b : a)
            }
            return (checkedTimes, uncheckedTimes)
        }
        (result.storageChecked, result.storageUnchecked) = alternate(storageCalls, warmUp: 50, "storage.get", get, expect: 0)
        (result.httpChecked, result.httpUnchecked) = alternate(httpCalls, warmUp: 10, "http.get", fetch, expect: 6)
        return result
    }
}
