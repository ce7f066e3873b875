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
