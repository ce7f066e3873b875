import CDenLibraries
import DenLibraryContracts
import CDenABI
import DenKit
import DenSupport
import FoundationEssentials

/// The network I/O of the `http` service, in `libDenHTTPTransport.so` (see `InstallLayout`), loaded
/// on the first fetch: linking FoundationNetworking into the host would load libcurl and some
/// thirty libraries on every start (docs/PERFORMANCE.md), and most runs fetch nothing.
package final class HTTPTransport: Sendable {
    private typealias GetFunction = @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<den_owned>?) -> Int32
    private typealias GetProgressFunction = @convention(c) (UnsafePointer<UInt8>?, Int, den_http_transport_progress_fn?,
                                                            UnsafeMutableRawPointer?, UnsafeMutablePointer<den_owned>?) -> Int32

    /// The library's functions: `getProgress` is a later, optional export (nil in an older library).
    private struct Functions: @unchecked Sendable {
        var get: GetFunction
        var getProgress: GetProgressFunction?
    }

    /// `DEN_HTTP_TRANSPORT` (a file path) overrides where the library is looked for.
    package static let shared = HTTPTransport(library: ProcessEnvironment.value("DEN_HTTP_TRANSPORT").map(URL.init(fileURLWithPath:))
        ?? InstallLayout.current?.helperLibrary(DEN_HTTP_TRANSPORT_LIBRARY_FILE)) // <prefix>/lib/den when installed

    private let loaded: Result<Functions, ServiceFailure>

    /// `progressSymbol` is the optional export's name; a test passes another to stand in for a
    /// library built before it.
    package init(library: URL?, progressSymbol: String = DEN_HTTP_TRANSPORT_GET_PROGRESS) {
        loaded = Self.load(library, progressSymbol: progressSymbol)
    }

    package func get(_ request: TransportRequest) throws(ServiceFailure) -> TransportOutcome {
        let function = try loaded.get().get
        return try call(request) { bytes, length, outcome in function(bytes, length, outcome) }
    }

    /// The same GET, telling `progress` how many bytes of the body have arrived: from the
    /// transport's thread, at most ten times a second and once with the whole count, never after
    /// this returns (den_http_transport_get_progress). A library without that export is called as
    /// `get` is, and `progress` hears the body's count once, when it is in.
    package func get(_ request: TransportRequest, progress: @escaping @Sendable (Int64) -> Void) throws(ServiceFailure) -> TransportOutcome {
        let functions = try loaded.get()
        guard let getProgress = functions.getProgress else {
            let outcome = try call(request) { bytes, length, outcome in functions.get(bytes, length, outcome) }
            if case .fetched(_, _, let body) = outcome { progress(Int64(body.count)) }
            return outcome
        }
        let listener = Unmanaged.passRetained(ProgressListener(progress))
        defer { listener.release() } // the library calls it no more once the call has returned
        return try call(request) { bytes, length, outcome in
            getProgress(bytes, length, { context, received in
                guard let context else { return }
                Unmanaged<ProgressListener>.fromOpaque(context).takeUnretainedValue().progress(received)
            }, listener.toOpaque(), outcome)
        }
    }

    private func call(_ request: TransportRequest,
                      _ function: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<den_owned>?) -> Int32) throws(ServiceFailure) -> TransportOutcome {
        let body: Data
        do { body = try JSONEncoder().encode(request) } catch {
            throw ServiceFailure(.internalError, "http.get: could not encode the request: \(error)")
        }
        var outcome = den_owned(ptr: nil, len: 0, release: nil)
        let status = body.withUnsafeBytes { raw in
            function(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &outcome)
        }
        let answer = OwnedBuffer.take(&outcome)
        guard status == DEN_OK.rawValue, let decoded = try? JSONDecoder().decode(TransportOutcome.self, from: answer) else {
            throw ServiceFailure(.internalError, "http.get: the HTTP transport failed (status \(status)); rebuild Den with Scripts/build.sh")
        }
        return decoded
    }

    private static func load(_ library: URL?, progressSymbol: String) -> Result<Functions, ServiceFailure> {
        let fix = "rebuild Den with Scripts/build.sh, which builds \(DEN_HTTP_TRANSPORT_LIBRARY_FILE) beside den, or point DEN_HTTP_TRANSPORT at it"
        guard let library else {
            return .failure(.unavailable("http.get: cannot find \(DEN_HTTP_TRANSPORT_LIBRARY_FILE) (the executable's folder is unknown); \(fix)"))
        }
        do {
            let image = try DynamicLibrary.open(library.path)
            guard let symbol = image.symbol(DEN_HTTP_TRANSPORT_GET) else {
                return .failure(.unavailable("http.get: \(library.path) does not export \(DEN_HTTP_TRANSPORT_GET); \(fix)"))
            }
            let getProgress = image.symbol(progressSymbol).map { unsafeBitCast($0, to: GetProgressFunction.self) }
            return .success(Functions(get: unsafeBitCast(symbol, to: GetFunction.self), getProgress: getProgress))
        } catch {
            return .failure(.unavailable("http.get: cannot load the HTTP transport \(library.path) (\(error.message)); \(fix)"))
        }
    }
}

/// The closure behind a progress callback's context pointer.
private final class ProgressListener: Sendable {
    let progress: @Sendable (Int64) -> Void
    init(_ progress: @escaping @Sendable (Int64) -> Void) { self.progress = progress }
}
