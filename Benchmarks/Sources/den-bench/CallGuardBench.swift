import DenHost
import Foundation

/// What the call guard (`ModuleCallRunner`: the call on the caller's thread, its deadline kept by
/// the watchdog thread) costs: the guard around an empty call, beside a real event round trip
/// through a session (About's "website" action: encode the event, `handle` in the plugin, read
/// the reply, apply the `open_url` effect), which includes one guarded call. Also the empty call
/// handed to a thread of its own and waited for, as `den run` once guarded every call: what a
/// hand-over to another thread costs here.
struct CallGuardBench {
    var plugin: URL
    var calls: Int
    var workDirectory: URL

    struct Result {
        var guarded = Samples()
        var direct = Samples()
        var roundTrip = Samples()
        var ownThread = Samples()
        var failures: [String] = []
    }

    func run() throws -> Result {
        let plugins = workDirectory.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: plugin, to: plugins.appendingPathComponent(plugin.lastPathComponent))
        let runtime = DenRuntime(configuration: HostConfiguration(
            pluginDirectories: [plugins], bundledDirectory: nil,
            cacheDirectory: workDirectory.appendingPathComponent("cache"), dataDirectory: workDirectory.appendingPathComponent("data")))
        runtime.loadPlugins()
        let session = runtime.makeSession()
        var result = Result()
        guard session.open("about").errors.isEmpty, session.current?.moduleID == "about" else {
            result.failures.append("About did not open")
            return result
        }
        let runner = ModuleCallRunner()
        let call = ModuleCall(moduleID: "bench", what: "empty call")
        let body: @Sendable () -> Int = { 42 }
        for round in 0..<(calls + 20) {
            // Rotate the kinds so drift weighs on all three alike; the first 20 rounds warm up.
            for kind in [(round % 4), (round + 1) % 4, (round + 2) % 4, (round + 3) % 4] {
                let start = nowNanoseconds()
                switch kind {
                case 0:
                    if case .failure = runner.run(call, body) { result.failures.append("the empty call was given up") }
                case 1:
                    if body() != 42 { result.failures.append("direct call") }
                case 3:
                    if Self.onOwnThread(body) != 42 { result.failures.append("own thread") }
                default:
                    let view = session.send(action: "website", fields: [:])
                    if view.openURLs.isEmpty { result.failures.append("About's website action opened nothing: \(view.errors)") }
                }
                let elapsed = nowNanoseconds() - start
                guard round >= 20 else { continue }
                switch kind {
                case 0: result.guarded.add(elapsed)
                case 1: result.direct.add(elapsed)
                case 3: result.ownThread.add(elapsed)
                default: result.roundTrip.add(elapsed)
                }
            }
        }
        return result
    }

    private final class Hand: @unchecked Sendable {
        let body: @Sendable () -> Int
        let done = DispatchSemaphore(value: 0)
        var value = 0
        init(_ body: @escaping @Sendable () -> Int) { self.body = body }
    }

    /// `body` on a new detached thread, waited for: the caller sleeps and is woken.
    static func onOwnThread(_ body: @escaping @Sendable () -> Int) -> Int {
        let hand = Hand(body)
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { raw in
            let hand = Unmanaged<Hand>.fromOpaque(raw!).takeRetainedValue()
            hand.value = hand.body()
            hand.done.signal()
            return nil
        }, Unmanaged.passRetained(hand).toOpaque())
        guard started == 0 else { return -1 }
        pthread_detach(thread)
        hand.done.wait()
        return hand.value
    }
}
