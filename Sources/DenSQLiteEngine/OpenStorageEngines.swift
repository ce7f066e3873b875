import DenLibraryContracts
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Closes every open SQLite engine when the process exits normally (`exit`, a return from main,
/// ArgumentParser's exit on error), so SQLite checkpoints the write-ahead log into
/// `storage.sqlite` and removes `storage.sqlite-wal`: after a clean quit the one file holds all
/// the data, as the README promises.
///
/// Exits that skip `atexit` (`_exit` on Ctrl-C at the prompt, a fatal signal, kill -9) lose
/// nothing either: every synced write is in the synced log when it returns, and is checkpointed
/// a few milliseconds later (`BackgroundCheckpoint`); SQLite replays a leftover log on the next open.
enum OpenStorageEngines {
    private struct Entry: @unchecked Sendable {
        weak var engine: SQLiteStorageEngine?
    }

    private static let engines = Mutex<[Entry]>([])
    private static let installed = Mutex(false)

    static func register(_ engine: SQLiteStorageEngine) {
        engines.withLock { list in
            list.removeAll { $0.engine == nil }
            list.append(Entry(engine: engine))
        }
        let first = installed.withLock { done in
            defer { done = true }
            return !done
        }
        if first { atexit { OpenStorageEngines.closeAll() } }
    }

    static func closeAll() {
        let open = engines.withLock { list in
            defer { list.removeAll() }
            return list.compactMap(\.engine)
        }
        // At exit another thread may still be inside a call (a module call den gave up on):
        // never wait for it: the synced log already holds its data.
        for engine in open { engine.closeIfIdle() }
    }
}
