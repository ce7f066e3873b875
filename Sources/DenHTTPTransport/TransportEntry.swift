import CDenLibraries
import CDenABI
import DenLibraryContracts
import Foundation

/// Never called: it compiles only while the function below has the type den_libraries.h gives
/// it, which is the type den calls it through.
private func signatureMatchesTheContract() {
    let _: den_http_transport_get_fn = denHTTPTransportGet
    let _: den_http_transport_get_progress_fn = denHTTPTransportGetProgress
}

/// The transport's first export (den_http_transport_get in den_libraries.h): a blocking GET, JSON in, JSON out.
/// Thread-safe; blocks the calling thread for at most the request's timeout.
@_cdecl("den_http_transport_get")
public func denHTTPTransportGet(_ request: UnsafePointer<UInt8>?, _ length: Int,
                                _ outcome: UnsafeMutablePointer<den_owned>?) -> Int32 {
    get(request, length, outcome, progress: nil)
}

/// The same GET, telling `progress` the body's bytes as they arrive (den_http_transport_get_progress):
/// a later, optional export, so a den built before it still loads this library and the reverse.
@_cdecl("den_http_transport_get_progress")
public func denHTTPTransportGetProgress(_ request: UnsafePointer<UInt8>?, _ length: Int,
                                        _ progress: den_http_transport_progress_fn?, _ context: UnsafeMutableRawPointer?,
                                        _ outcome: UnsafeMutablePointer<den_owned>?) -> Int32 {
    guard let progress else { return get(request, length, outcome, progress: nil) }
    let callback = CallerCallback(function: progress, context: context)
    let reporter = ProgressReporter { received in callback.function(callback.context, received) }
    defer { reporter.close() } // the context is valid only until this returns
    return get(request, length, outcome, progress: reporter)
}

/// The caller's C callback and its context, called on the transport's thread: the caller vouches
/// for both until its call returns.
private struct CallerCallback: @unchecked Sendable {
    let function: den_http_transport_progress_fn
    let context: UnsafeMutableRawPointer?
}

private func get(_ request: UnsafePointer<UInt8>?, _ length: Int, _ outcome: UnsafeMutablePointer<den_owned>?,
                 progress: ProgressReporter?) -> Int32 {
    guard let request, let outcome else { return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue) }
    let result: TransportOutcome
    do {
        let decoded = try JSONDecoder().decode(TransportRequest.self, from: Data(bytes: request, count: length))
        guard let url = URL(string: decoded.url) else {
            result = .failed(.transport(code: URLError.Code.badURL.rawValue, description: "not a URL"))
            return write(result, to: outcome)
        }
        switch BlockingHTTPClient.shared.get(url, headers: decoded.headers, timeoutMilliseconds: decoded.timeoutMilliseconds,
                                             maxBytes: decoded.maxBytes, followsRedirects: decoded.followsRedirects, progress: progress) {
        case .success(let fetched): result = .fetched(status: fetched.status, headers: fetched.headers, body: fetched.body)
        case .failure(let failure): result = .failed(failure)
        }
    } catch {
        return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue)
    }
    return write(result, to: outcome)
}

private func write(_ result: TransportOutcome, to outcome: UnsafeMutablePointer<den_owned>) -> Int32 {
    guard let data = try? JSONEncoder().encode(result), let memory = malloc(max(data.count, 1)) else {
        return Int32(DEN_ERR_INTERNAL.rawValue)
    }
    let bytes = memory.assumingMemoryBound(to: UInt8.self)
    data.copyBytes(to: bytes, count: data.count)
    outcome.pointee = den_owned(ptr: bytes, len: data.count, release: den_free_release)
    return Int32(DEN_OK.rawValue)
}
