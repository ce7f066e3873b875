import CDenABI
import CDenLibraries
import DenLibraryContracts
import DenKit
import DenSQLiteEngine
import Foundation

// The three C functions `LibraryStorageEngine` calls, typed in den_libraries.h; the documents
// they carry are DenLibraryContracts' StorageLibraryCall and StorageLibraryAnswer.

/// Never called: it compiles only while each function below has the type den_libraries.h gives
/// it, which is the type den calls it through.
private func signaturesMatchTheContract() {
    let _: den_storage_library_open_fn = denStorageLibraryOpen
    let _: den_storage_library_call_fn = denStorageLibraryCall
    let _: den_storage_library_close_fn = denStorageLibraryClose
    let _: den_storage_library_get_fn = denStorageLibraryGet
    let _: den_storage_library_set_fn = denStorageLibrarySet
    let _: den_storage_library_delete_fn = denStorageLibraryDelete
    let _: den_storage_library_increment_fn = denStorageLibraryIncrement
    let _: den_storage_library_insert_fn = denStorageLibraryInsert
    let _: den_storage_library_changes_fn = denStorageLibraryChanges
}

/// A `SQLiteStorageEngine` for the folder, kept until `den_storage_library_close`.
@_cdecl("den_storage_library_open")
public func denStorageLibraryOpen(_ folder: UnsafePointer<UInt8>?, _ length: Int,
                                  _ report: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int) -> Void)?,
                                  _ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let folder else { return nil }
    let path = String(decoding: UnsafeBufferPointer(start: folder, count: length), as: UTF8.self)
    let listener = WaitReport(function: report, context: context)
    let engine = SQLiteStorageEngine(directory: URL(fileURLWithPath: path, isDirectory: true)) { wait in
        listener.send("\(wait)")
    }
    return Unmanaged.passRetained(engine).toOpaque()
}

/// Performs one call on an engine from `den_storage_library_open`.
@_cdecl("den_storage_library_call")
public func denStorageLibraryCall(_ engine: UnsafeMutableRawPointer?, _ call: UnsafePointer<UInt8>?, _ length: Int,
                                  _ answer: UnsafeMutablePointer<den_owned>?) -> Int32 {
    guard let engine, let call, let answer,
          let decoded = try? JSONDecoder().decode(StorageLibraryCall.self, from: Data(bytes: call, count: length)) else {
        return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
    }
    let sqlite = Unmanaged<SQLiteStorageEngine>.fromOpaque(engine).takeUnretainedValue()
    guard let body = try? JSONEncoder().encode(decoded.perform(on: sqlite)) else { return Int32(DEN_ERR_INTERNAL.rawValue) }
    answer.pointee = OwnedBuffer.make(body)
    return Int32(DEN_OK.rawValue)
}

/// Closes and frees an engine from `den_storage_library_open`.
@_cdecl("den_storage_library_close")
public func denStorageLibraryClose(_ engine: UnsafeMutableRawPointer?) {
    guard let engine else { return }
    Unmanaged<SQLiteStorageEngine>.fromOpaque(engine).takeRetainedValue().close()
}

/// The host's wait listener: a C function and its context, both valid until the engine is closed.
private struct WaitReport: @unchecked Sendable {
    let function: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int) -> Void)?
    let context: UnsafeMutableRawPointer?

    func send(_ text: String) {
        guard let function else { return }
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBufferPointer { function(context, $0.baseAddress, $0.count) }
    }
}

// The direct functions: plain arguments in and out, no document (den_libraries.h).

/// Runs `body` on the engine; a failure becomes its status and message.
private func direct(_ engine: UnsafeMutableRawPointer?, _ message: UnsafeMutablePointer<den_owned>?,
                    _ body: (SQLiteStorageEngine) throws(ServiceFailure) -> Void) -> Int32 {
    guard let engine else {
        message?.pointee = OwnedBuffer.make("storage: no engine was given")
        return Int32(DEN_STORAGE_INTERNAL_ERROR)
    }
    do throws(ServiceFailure) {
        try body(Unmanaged<SQLiteStorageEngine>.fromOpaque(engine).takeUnretainedValue())
        return Int32(DEN_STORAGE_DONE)
    } catch {
        message?.pointee = OwnedBuffer.make(error.message)
        return error.kind.storageStatus
    }
}

private extension den_bytes {
    var text: String { String(decoding: UnsafeBufferPointer(start: ptr, count: ptr == nil ? 0 : len), as: UTF8.self) }
}

@_cdecl("den_storage_library_get")
public func denStorageLibraryGet(_ engine: UnsafeMutableRawPointer?, _ namespace: den_bytes, _ key: den_bytes,
                                 _ found: UnsafeMutablePointer<Int32>?, _ value: UnsafeMutablePointer<den_owned>?,
                                 _ message: UnsafeMutablePointer<den_owned>?) -> Int32 {
    direct(engine, message) { (sqlite) throws(ServiceFailure) in
        let stored = try sqlite.get(namespace: namespace.text, key: key.text)
        found?.pointee = stored == nil ? 0 : 1
        if let stored { value?.pointee = OwnedBuffer.make(stored) }
    }
}

@_cdecl("den_storage_library_set")
public func denStorageLibrarySet(_ engine: UnsafeMutableRawPointer?, _ namespace: den_bytes, _ key: den_bytes,
                                 _ value: den_bytes, _ message: UnsafeMutablePointer<den_owned>?) -> Int32 {
    direct(engine, message) { (sqlite) throws(ServiceFailure) in
        try sqlite.set(namespace: namespace.text, key: key.text, value: value.text)
    }
}

@_cdecl("den_storage_library_delete")
public func denStorageLibraryDelete(_ engine: UnsafeMutableRawPointer?, _ namespace: den_bytes, _ key: den_bytes,
                                    _ existed: UnsafeMutablePointer<Int32>?, _ message: UnsafeMutablePointer<den_owned>?) -> Int32 {
    direct(engine, message) { (sqlite) throws(ServiceFailure) in
        existed?.pointee = try sqlite.delete(namespace: namespace.text, key: key.text) ? 1 : 0
    }
}

@_cdecl("den_storage_library_increment")
public func denStorageLibraryIncrement(_ engine: UnsafeMutableRawPointer?, _ namespace: den_bytes, _ key: den_bytes,
                                       _ value: UnsafeMutablePointer<Int64>?, _ message: UnsafeMutablePointer<den_owned>?) -> Int32 {
    direct(engine, message) { (sqlite) throws(ServiceFailure) in
        value?.pointee = Int64(try sqlite.increment(namespace: namespace.text, key: key.text))
    }
}

@_cdecl("den_storage_library_insert")
public func denStorageLibraryInsert(_ engine: UnsafeMutableRawPointer?, _ namespace: den_bytes, _ counter: den_bytes,
                                    _ prefix: den_bytes, _ before: den_bytes, _ after: den_bytes,
                                    _ id: UnsafeMutablePointer<Int64>?, _ message: UnsafeMutablePointer<den_owned>?) -> Int32 {
    direct(engine, message) { (sqlite) throws(ServiceFailure) in
        let insert = StorageInsert(counter: counter.text, prefix: prefix.text, before: before.text, after: after.text)
        id?.pointee = Int64(try sqlite.insert(namespace: namespace.text, insert))
    }
}

@_cdecl("den_storage_library_changes")
public func denStorageLibraryChanges(_ engine: UnsafeMutableRawPointer?, _ changes: UnsafeMutablePointer<UInt64>?,
                                     _ message: UnsafeMutablePointer<den_owned>?) -> Int32 {
    direct(engine, message) { (sqlite) throws(ServiceFailure) in
        changes?.pointee = try sqlite.foreignChanges() ?? 0
    }
}
