import CDenLibraries
import DenLibraryContracts
import CDenABI
import DenKit
import DenSupport
import FoundationEssentials
import Synchronization

/// Den's SQLite storage (`<folder>/storage.sqlite`), reached through `libDenSQLiteStorage.so`,
/// which is loaded on the first storage call (see DenLibraryContracts' `StorageLibraryDocuments.swift` for why). Every
/// call is one JSON document each way; the engine behind it is `SQLiteStorageEngine`, with all
/// of its guarantees (atomic transactions, waiting for other processes, read-only folders).
public final class LibraryStorageEngine: StorageEngine, @unchecked Sendable {
    // The library's functions, typed by den_libraries.h (which the library is checked against).
    private typealias OpenFunction = den_storage_library_open_fn
    private typealias CallFunction = den_storage_library_call_fn
    private typealias CloseFunction = den_storage_library_close_fn
    package typealias ReportFunction = den_storage_report_fn

    /// Where the wait notices go; retained for the library until the engine is closed (`deinit`).
    private final class WaitListener: Sendable {
        let report: Mutex<@Sendable (String) -> Void>
        init(_ report: @escaping @Sendable (String) -> Void) { self.report = Mutex(report) }
    }

    private struct Opened: @unchecked Sendable {
        let engine: UnsafeMutableRawPointer
        let call: CallFunction
        let close: CloseFunction
        /// The retained `WaitListener` the library reports to.
        let context: UnsafeMutableRawPointer
        /// The direct functions (no document each way); nil in a library without them.
        var direct: Direct?
    }

    private struct Direct {
        let get: den_storage_library_get_fn
        let set: den_storage_library_set_fn
        let delete: den_storage_library_delete_fn
        let increment: den_storage_library_increment_fn
        let insert: den_storage_library_insert_fn
        /// Optional among the direct functions.
        let changes: den_storage_library_changes_fn?
    }

    public let directory: URL
    /// The library named at init; nil: found on the first call (`defaultLibrary`), so a start that
    /// never stores anything never builds its path.
    private let library: URL?
    private let listener: WaitListener
    /// Every call as a document through den_storage_library_call, as with a library that has no
    /// direct functions (tests hold both paths to the same behaviour).
    private let documentsOnly: Bool
    private let opened = Mutex<Result<Opened, ServiceFailure>?>(nil)

    /// - Parameters:
    ///   - library: the library file; nil looks in `$DEN_STORAGE_LIBRARY`, then beside `den`
    ///     (or in `<prefix>/lib/den` when installed).
    ///   - onWait: hears "waiting for another process" notices (default: standard error).
    public convenience init(directory: URL, library: URL? = nil,
                onWait: @escaping @Sendable (String) -> Void = LibraryStorageEngine.reportToStandardError) {
        self.init(directory: directory, library: library, documentsOnly: false, onWait: onWait)
    }

    package init(directory: URL, library: URL?, documentsOnly: Bool,
                 onWait: @escaping @Sendable (String) -> Void = LibraryStorageEngine.reportToStandardError) {
        self.directory = directory
        self.library = library
        self.documentsOnly = documentsOnly
        self.listener = WaitListener(onWait)
    }

    /// A line on standard error, where it never mixes with a screen on standard output.
    public static let reportToStandardError: @Sendable (String) -> Void = { text in
        StandardStream.error.write("den: \(text)\n")
    }

    /// Closes the database (its log checkpointed into `storage.sqlite`) when the last user lets go.
    deinit {
        guard case .success(let opened)? = opened.withLock({ $0 }) else { return }
        opened.close(opened.engine)
        Unmanaged<WaitListener>.fromOpaque(opened.context).release()
    }

    /// Sends later wait notices to `report` (the host's log).
    public func reportWaitNotices(to report: @escaping @Sendable (String) -> Void) {
        listener.report.withLock { $0 = report }
    }

    package static func defaultLibrary() -> URL? {
        if let named = ProcessEnvironment.value("DEN_STORAGE_LIBRARY"), !named.isEmpty {
            return URL(fileURLWithPath: named)
        }
        return InstallLayout.current?.helperLibrary(DEN_STORAGE_LIBRARY_FILE)
    }

    public func get(namespace: String, key: String) throws(ServiceFailure) -> String? {
        let opened = try open()
        if let direct = opened.direct {
            var found: Int32 = 0
            var value = den_owned(ptr: nil, len: 0, release: nil)
            try Self.directCall(namespace, key) { message, ns, key in direct.get(opened.engine, ns, key, &found, &value, message) }
            let bytes = OwnedBuffer.take(&value)
            return found == 0 ? nil : String(decoding: bytes, as: UTF8.self)
        }
        guard case .value(let value) = try perform(.get(namespace: namespace, key: key)) else { throw Self.unexpected }
        return value
    }

    public func set(namespace: String, key: String, value: String) throws(ServiceFailure) {
        let opened = try open()
        if let direct = opened.direct {
            try Self.directCall(namespace, key, value) { message, ns, key, value in direct.set(opened.engine, ns, key, value, message) }
            return
        }
        guard case .done = try perform(.set(namespace: namespace, key: key, value: value)) else { throw Self.unexpected }
    }

    public func delete(namespace: String, key: String) throws(ServiceFailure) -> Bool {
        let opened = try open()
        if let direct = opened.direct {
            var existed: Int32 = 0
            try Self.directCall(namespace, key) { message, ns, key in direct.delete(opened.engine, ns, key, &existed, message) }
            return existed != 0
        }
        guard case .existed(let existed) = try perform(.delete(namespace: namespace, key: key)) else { throw Self.unexpected }
        return existed
    }

    public func list(namespace: String, prefix: String) throws(ServiceFailure) -> [StorageEntry] {
        guard case .entries(let entries) = try perform(.list(namespace: namespace, prefix: prefix)) else { throw Self.unexpected }
        return entries
    }

    public func apply(namespace: String, operations: [StorageOperation]) throws(ServiceFailure) {
        guard case .done = try perform(.apply(namespace: namespace, operations: operations)) else { throw Self.unexpected }
    }

    public func applyUnsynced(namespace: String, operations: [StorageOperation]) throws(ServiceFailure) {
        guard case .done = try perform(.applyUnsynced(namespace: namespace, operations: operations)) else { throw Self.unexpected }
    }

    public func applyUnsynced(namespace: String, operations: [StorageOperation], ifKey key: String, holds expected: String) throws(ServiceFailure) -> Bool {
        guard case .existed(let applied) = try perform(.applyUnsyncedIf(namespace: namespace, operations: operations, key: key, expected: expected))
        else { throw Self.unexpected }
        return applied
    }

    public func foreignChanges() throws(ServiceFailure) -> UInt64? {
        let opened = try open()
        if let changes = opened.direct?.changes {
            var value: UInt64 = 0
            var message = den_owned(ptr: nil, len: 0, release: nil)
            let status = changes(opened.engine, &value, &message)
            try Self.finish(status, &message)
            return value
        }
        guard case .changes(let value) = try perform(.foreignChanges) else { throw Self.unexpected }
        return value
    }

    public func increment(namespace: String, key: String) throws(ServiceFailure) -> Int {
        let opened = try open()
        if let direct = opened.direct {
            var value: Int64 = 0
            try Self.directCall(namespace, key) { message, ns, key in direct.increment(opened.engine, ns, key, &value, message) }
            return Int(value)
        }
        guard case .count(let count) = try perform(.increment(namespace: namespace, key: key)) else { throw Self.unexpected }
        return count
    }

    public func insert(namespace: String, _ insert: StorageInsert) throws(ServiceFailure) -> Int {
        let opened = try open()
        if let direct = opened.direct {
            var id: Int64 = 0
            try Self.directCall(namespace, insert.counter, insert.prefix) { message, ns, counter, prefix in
                Self.borrowed(insert.before) { before in
                    Self.borrowed(insert.after) { after in direct.insert(opened.engine, ns, counter, prefix, before, after, &id, message) }
                }
            }
            return Int(id)
        }
        guard case .count(let id) = try perform(.insert(namespace: namespace, insert: insert)) else { throw Self.unexpected }
        return id
    }

    public func namespaces() throws(ServiceFailure) -> [String] {
        guard case .names(let names) = try perform(.namespaces) else { throw Self.unexpected }
        return names
    }

    public func apply(across operations: [NamespacedOperation]) throws(ServiceFailure) {
        guard case .done = try perform(.applyAcross(operations)) else { throw Self.unexpected }
    }

    /// `text`'s UTF-8 as borrowed bytes, for the length of `body`.
    private static func borrowed<T>(_ text: String, _ body: (den_bytes) -> T) -> T {
        var text = text
        return text.withUTF8 { body(den_bytes(ptr: $0.baseAddress, len: $0.count)) }
    }

    /// Calls a direct function with the namespace and `texts` as borrowed bytes; its failure
    /// (a status and the message it wrote) is thrown.
    private static func directCall(_ namespace: String, _ first: String,
                                   _ call: (UnsafeMutablePointer<den_owned>, den_bytes, den_bytes) -> Int32) throws(ServiceFailure) {
        var message = den_owned(ptr: nil, len: 0, release: nil)
        let status = borrowed(namespace) { ns in borrowed(first) { first in call(&message, ns, first) } }
        try finish(status, &message)
    }

    private static func directCall(_ namespace: String, _ first: String, _ second: String,
                                   _ call: (UnsafeMutablePointer<den_owned>, den_bytes, den_bytes, den_bytes) -> Int32) throws(ServiceFailure) {
        var message = den_owned(ptr: nil, len: 0, release: nil)
        let status = borrowed(namespace) { ns in borrowed(first) { first in borrowed(second) { second in call(&message, ns, first, second) } } }
        try finish(status, &message)
    }

    private static func finish(_ status: Int32, _ message: inout den_owned) throws(ServiceFailure) {
        let text = String(decoding: OwnedBuffer.take(&message), as: UTF8.self)
        if let kind = ServiceFailure.Kind(storageStatus: status) { throw ServiceFailure(kind, text) }
    }

    private static let unexpected = ServiceFailure(.internalError, "storage: \(DEN_STORAGE_LIBRARY_FILE) answered a different call; rebuild Den with Scripts/build.sh so den and the library match")

    private func perform(_ call: StorageLibraryCall) throws(ServiceFailure) -> StorageLibraryAnswer {
        let opened = try open()
        let document: Data
        do { document = try JSONEncoder().encode(call) } catch {
            throw ServiceFailure(.internalError, "storage: could not encode the call: \(error)")
        }
        var answer = den_owned(ptr: nil, len: 0, release: nil)
        let status = document.withUnsafeBytes { raw in
            opened.call(opened.engine, raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &answer)
        }
        let body = OwnedBuffer.take(&answer)
        guard status == DEN_OK.rawValue else {
            throw ServiceFailure(.internalError, "storage: \(DEN_STORAGE_LIBRARY_FILE) could not read the call (status \(status)); rebuild Den with Scripts/build.sh so den and the library match")
        }
        guard let decoded = try? JSONDecoder().decode(StorageLibraryAnswer.self, from: body) else { throw Self.unexpected }
        if case .failed(let kind, let message) = decoded { throw ServiceFailure(kind, message) }
        return decoded
    }

    /// Loads the library and opens the engine once; a failure is kept and given to every call.
    private func open() throws(ServiceFailure) -> Opened {
        try opened.withLock { state in
            if let state { return state }
            let result = load()
            state = result
            return result
        }.get()
    }

    private func load() -> Result<Opened, ServiceFailure> {
        let fix = "rebuild Den with Scripts/build.sh, which builds \(DEN_STORAGE_LIBRARY_FILE) beside den, or point DEN_STORAGE_LIBRARY at it"
        guard let library = library ?? Self.defaultLibrary() else {
            return .failure(.unavailable("storage: cannot find \(DEN_STORAGE_LIBRARY_FILE) (the executable's folder is unknown); \(fix)"))
        }
        let image: DynamicLibrary
        do { image = try DynamicLibrary.open(library.path) } catch {
            return .failure(.unavailable("storage: cannot load \(library.path) (\(error.message)); \(fix)"))
        }
        guard let openSymbol = image.symbol(DEN_STORAGE_LIBRARY_OPEN), let callSymbol = image.symbol(DEN_STORAGE_LIBRARY_CALL),
              let closeSymbol = image.symbol(DEN_STORAGE_LIBRARY_CLOSE) else {
            return .failure(.unavailable("storage: \(library.path) does not export \(DEN_STORAGE_LIBRARY_OPEN), \(DEN_STORAGE_LIBRARY_CALL) and \(DEN_STORAGE_LIBRARY_CLOSE); \(fix)"))
        }
        let openEngine = unsafeBitCast(openSymbol, to: OpenFunction.self)
        let context = Unmanaged.passRetained(listener).toOpaque() // the library may report at any time
        let report: ReportFunction = { context, text, length in
            guard let context, let text else { return }
            let listener = Unmanaged<WaitListener>.fromOpaque(context).takeUnretainedValue()
            let line = String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)
            listener.report.withLock { $0 }(line)
        }
        let path = Array(directory.path.utf8)
        guard let engine = path.withUnsafeBufferPointer({ openEngine($0.baseAddress, $0.count, report, context) }) else {
            Unmanaged<WaitListener>.fromOpaque(context).release()
            return .failure(.unavailable("storage: \(library.path) could not make an engine for \(directory.path); \(fix)"))
        }
        var direct: Direct?
        if !documentsOnly, let get = image.symbol(DEN_STORAGE_LIBRARY_GET), let set = image.symbol(DEN_STORAGE_LIBRARY_SET),
           let delete = image.symbol(DEN_STORAGE_LIBRARY_DELETE), let increment = image.symbol(DEN_STORAGE_LIBRARY_INCREMENT),
           let insert = image.symbol(DEN_STORAGE_LIBRARY_INSERT) {
            direct = Direct(get: unsafeBitCast(get, to: den_storage_library_get_fn.self),
                            set: unsafeBitCast(set, to: den_storage_library_set_fn.self),
                            delete: unsafeBitCast(delete, to: den_storage_library_delete_fn.self),
                            increment: unsafeBitCast(increment, to: den_storage_library_increment_fn.self),
                            insert: unsafeBitCast(insert, to: den_storage_library_insert_fn.self),
                            changes: image.symbol(DEN_STORAGE_LIBRARY_CHANGES).map { unsafeBitCast($0, to: den_storage_library_changes_fn.self) })
        }
        return .success(Opened(engine: engine, call: unsafeBitCast(callSymbol, to: CallFunction.self),
                               close: unsafeBitCast(closeSymbol, to: CloseFunction.self), context: context, direct: direct))
    }
}
