import DenLibraryContracts
import Logging
import PostgresNIO
import Synchronization

/// Hears the `den_changes` channel, where the database announces every deletion in den's own
/// namespaces and every overwrite of an account record (schema version 3's triggers), and tells
/// each watcher of its namespace. One
/// listening connection per engine, opened by the first watcher; a lost connection is retried
/// every `retry`, and watchers hear `stopped` and then `watching` again (notifications sent while
/// nobody listened are lost, so what they hold must be checked afresh).
final class PostgresChangeWatch: Sendable {
    static let channel = "den_changes"

    private struct Watcher {
        var namespace: String
        var report: @Sendable (StorageChange) -> Void
    }

    private struct Watchers {
        var list: [Watcher] = []
        /// Whether the channel is heard now: a watcher that comes later is told at once.
        var live = false
    }

    private let watchers = Mutex(Watchers())
    private let listening = Mutex<Task<Void, Never>?>(nil)

    func add(namespace: String, report: @escaping @Sendable (StorageChange) -> Void, engine: PostgresStorageEngine,
             retry: Duration = .seconds(1)) {
        // A watcher added while the channel is already heard (the accounts' came first) would
        // otherwise never hear `watching`, and trust nothing it holds for as long as den runs.
        let live = watchers.withLock { watchers in
            watchers.list.append(Watcher(namespace: namespace, report: report))
            return watchers.live
        }
        if live { report(.watching) }
        listening.withLock { task in
            guard task == nil else { return }
            let engine = WeakEngine(engine)
            task = Task(executorPreference: engine.value?.threads) { [weak self] in
                await self?.listen(engine: { engine.value }, retry: retry)
            }
        }
    }

    func stop() {
        listening.withLock { $0?.cancel(); $0 = nil }
    }

    deinit {
        listening.withLock { $0?.cancel() }
    }

    /// Tells every watcher, after recording whether the channel is heard (under the same lock as
    /// `add`, so no watcher misses the change).
    private func tellAll(_ event: StorageChange) {
        let all = watchers.withLock { watchers in
            if event == .watching { watchers.live = true }
            if event == .stopped { watchers.live = false }
            return watchers.list
        }
        for watcher in all { watcher.report(event) }
    }

    private func heard(_ payload: String) {
        // "<namespace>\t<key>": namespaces never hold a tab (ModuleIdentity, den's '@' names).
        guard let tab = payload.firstIndex(of: "\t") else { return }
        let namespace = String(payload[..<tab]), key = String(payload[payload.index(after: tab)...])
        for watcher in watchers.withLock({ $0.list }) where watcher.namespace == namespace { watcher.report(.changed(key)) }
    }

    /// `engine` is weak: the engine owns this watch, and its end ends the listening.
    private func listen(engine: @escaping @Sendable () -> PostgresStorageEngine?, retry: Duration) async {
        var stopped = false
        while !Task.isCancelled {
            do {
                guard let engine = engine() else { return }
                let connection = try await PostgresConnection.connect(configuration: try engine.location.connectionConfiguration(),
                                                                       id: 2, logger: engine.logger)
                defer { Task { try? await connection.close() } }
                try await connection.listen(on: Self.channel) { notifications in
                    stopped = false
                    tellAll(.watching)
                    for try await notification in notifications { heard(notification.payload) }
                }
            } catch {
                // Told once per outage: a watcher trusts nothing it holds until `watching` again.
            }
            if !stopped, !Task.isCancelled {
                stopped = true
                tellAll(.stopped)
            }
            try? await Task.sleep(for: retry)
        }
    }
}

/// The engine, not kept alive by its own watch.
private final class WeakEngine: Sendable {
    weak let value: PostgresStorageEngine?

    init(_ value: PostgresStorageEngine) {
        self.value = value
    }
}
