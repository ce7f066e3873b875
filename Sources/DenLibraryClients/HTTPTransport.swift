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

    /// `DEN_HTTP_TRANSPORT` (a file path) overrides where the library is looked for.
    package static let shared = HTTPTransport(library: ProcessEnvironment.value("DEN_HTTP_TRANSPORT").map(URL.init(fileURLWithPath:))
        ?? InstallLayout.current?.helperLibrary(DEN_HTTP_TRANSPORT_LIBRARY_FILE)) // <prefix>/lib/den when installed

    private let loaded: Result<GetFunction, ServiceFailure>

    package init(library: URL?) {
        loaded = Self.load(library)
    }

    package func get(_ request: TransportRequest) throws(ServiceFailure) -> TransportOutcome {
        let function = try loaded.get()
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

    private static func load(_ library: URL?) -> Result<GetFunction, ServiceFailure> {
        let fix = "rebuild Den with Scripts/build.sh, which builds \(DEN_HTTP_TRANSPORT_LIBRARY_FILE) beside den, or point DEN_HTTP_TRANSPORT at it"
        guard let library else {
            return .failure(.unavailable("http.get: cannot find \(DEN_HTTP_TRANSPORT_LIBRARY_FILE) (the executable's folder is unknown); \(fix)"))
        }
        do {
            let image = try DynamicLibrary.open(library.path)
            guard let symbol = image.symbol(DEN_HTTP_TRANSPORT_GET) else {
                return .failure(.unavailable("http.get: \(library.path) does not export \(DEN_HTTP_TRANSPORT_GET); \(fix)"))
            }
            return .success(unsafeBitCast(symbol, to: GetFunction.self))
        } catch {
            return .failure(.unavailable("http.get: cannot load the HTTP transport \(library.path) (\(error.message)); \(fix)"))
        }
    }
}
