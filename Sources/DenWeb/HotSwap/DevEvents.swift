import Foundation
import Synchronization

/// The server-sent events of `den serve --watch` and `den dev` (docs/HOT_SWAP.md): `swap` when
/// modules changed (every open page of one of them reloads itself), `problem` with a build or
/// swap error (every page shows it as a banner until the next success), `clear` when it is over.
/// Only made in development: plain `den serve` has no event stream at all.
package final class DevEvents: Sendable {
    private struct State {
        var subscribers: [Int: AsyncStream<String>.Continuation] = [:]
        var nextID = 0
        /// The problem a page opened now must show too.
        var problem: String?
        var heartbeat: Task<Void, Never>?
    }

    private let state = Mutex(State())
    /// A comment line this often keeps idle connections (and proxies) open.
    let heartbeatInterval: Duration

    package init(heartbeatInterval: Duration = .seconds(20)) {
        self.heartbeatInterval = heartbeatInterval
    }

    /// How many pages listen now.
    package var listeners: Int { state.withLock { $0.subscribers.count } }

    /// The problem pages show now, if any.
    package var problem: String? { state.withLock { $0.problem } }

    /// Modules whose pages must reload (a swap or a newly loaded module).
    package func swapped(_ moduleIDs: [String]) {
        let data = Self.json(["modules": moduleIDs])
        broadcast("event: swap\ndata: \(data)\n\n")
    }

    /// A build or swap error every page shows until `clearProblem()`.
    package func report(problem: String) {
        state.withLock { $0.problem = problem }
        broadcast(Self.problemEvent(problem))
    }

    package func clearProblem() {
        let had = state.withLock { state -> Bool in
            defer { state.problem = nil }
            return state.problem != nil
        }
        if had { broadcast("event: clear\ndata: {}\n\n") }
    }

    /// A new page's stream: it starts with the problem of the moment, if any.
    func subscribe() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        continuation.yield("retry: 1000\n\n")
        let id = state.withLock { state -> Int in
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = continuation
            if let problem = state.problem { continuation.yield(Self.problemEvent(problem)) }
            if state.heartbeat == nil { state.heartbeat = startHeartbeat() }
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every stream (den is shutting down).
    package func finish() {
        let (subscribers, heartbeat) = state.withLock { state in
            defer { state.subscribers = [:]; state.heartbeat = nil }
            return (Array(state.subscribers.values), state.heartbeat)
        }
        heartbeat?.cancel()
        for subscriber in subscribers { subscriber.finish() }
    }

    private func broadcast(_ event: String) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber.yield(event) }
    }

    private func startHeartbeat() -> Task<Void, Never> {
        let interval = heartbeatInterval
        return Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                self?.broadcast(": keep-alive\n\n")
            }
        }
    }

    private static func problemEvent(_ message: String) -> String {
        "event: problem\ndata: \(json(["message": message]))\n\n"
    }

    /// One line of JSON (a newline inside `data:` would end the event).
    static func json(_ object: [String: any Sendable]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
