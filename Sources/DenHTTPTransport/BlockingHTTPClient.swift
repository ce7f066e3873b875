import DenLibraryContracts
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Synchronous HTTP GET over one shared `URLSession`, for host services: the ABI call is
/// synchronous, so the calling (module) thread waits on a semaphore while the session's own
/// delegate queue collects the bytes. Nothing here runs on, or waits for, Swift concurrency's
/// cooperative pool, so a blocked caller cannot starve the callbacks it waits for.
///
/// The deadline covers the whole exchange (connect, headers, body); the byte limit is checked
/// against the declared `Content-Length` and again as each chunk arrives, and the transfer is
/// cancelled as soon as it is exceeded. `progress`, when given, hears the body's bytes so far
/// (`ProgressReporter`) and changes nothing else.
final class BlockingHTTPClient: Sendable {
    /// Created on first use: most runs never fetch anything, and a session costs a libcurl
    /// multi-handle and a queue.
    static let shared = BlockingHTTPClient()

    struct Fetched: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    typealias Failure = TransportFailure

    private let session: URLSession
    private let router: ExchangeRouter

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        // The per-request deadline below is the real bound; this is only a safety net.
        configuration.timeoutIntervalForResource = 65
        let queue = OperationQueue()
        queue.name = "den.http"
        queue.maxConcurrentOperationCount = 1
        router = ExchangeRouter()
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Fetches `url`, blocking the calling thread for at most `timeoutMilliseconds` (plus the
    /// time to cancel). `progress` is never called after this returns.
    func get(_ url: URL, headers: [String: String], timeoutMilliseconds: Int, maxBytes: Int, followsRedirects: Bool = true,
             progress: ProgressReporter? = nil) -> Result<Fetched, Failure> {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData,
                                 timeoutInterval: TimeInterval(timeoutMilliseconds) / 1000)
        request.httpMethod = "GET"
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let exchange = Exchange(maxBytes: maxBytes, followsRedirects: followsRedirects, progress: progress)
        defer { progress?.close() }
        let task = session.dataTask(with: request)
        router.register(exchange, for: task.taskIdentifier)
        defer { router.remove(task.taskIdentifier) }
        task.resume()

        if exchange.finished.wait(timeout: .now() + .milliseconds(timeoutMilliseconds)) == .timedOut {
            exchange.finish(.failure(.timedOut)) // no-op when the answer arrived meanwhile
            task.cancel()
        }
        return exchange.outcome ?? .failure(.timedOut)
    }
}

/// One request in flight: what has arrived so far and how it ended.
private final class Exchange: @unchecked Sendable {
    // All mutable state is guarded by `lock`.
    private let lock = NSLock()
    let maxBytes: Int
    let followsRedirects: Bool
    let progress: ProgressReporter?
    let finished = DispatchSemaphore(value: 0)
    private var response: HTTPURLResponse?
    private var body = Data()
    private var _outcome: Result<BlockingHTTPClient.Fetched, BlockingHTTPClient.Failure>?

    init(maxBytes: Int, followsRedirects: Bool, progress: ProgressReporter?) {
        self.maxBytes = maxBytes
        self.followsRedirects = followsRedirects
        self.progress = progress
    }

    var outcome: Result<BlockingHTTPClient.Fetched, BlockingHTTPClient.Failure>? {
        lock.withLock { _outcome }
    }

    /// Records the first outcome and wakes the caller; later outcomes are ignored.
    func finish(_ outcome: Result<BlockingHTTPClient.Fetched, BlockingHTTPClient.Failure>) {
        let first = lock.withLock {
            guard _outcome == nil else { return false }
            _outcome = outcome
            return true
        }
        if first { finished.signal() }
    }

    /// Accepts the response head unless it declares a body over the limit.
    func receive(_ response: URLResponse) -> Bool {
        if response.expectedContentLength > Int64(maxBytes) {
            finish(.failure(.tooLarge(declared: response.expectedContentLength)))
            return false
        }
        lock.withLock { self.response = response as? HTTPURLResponse }
        return true
    }

    /// Appends a chunk; false when the body is now over the limit (the caller cancels).
    func receive(_ data: Data) -> Bool {
        let received: Int? = lock.withLock {
            guard _outcome == nil else { return nil }
            guard body.count + data.count <= maxBytes else { return nil }
            body.append(data)
            return body.count
        }
        guard let received else {
            finish(.failure(.tooLarge(declared: nil)))
            return false
        }
        progress?.received(received)
        return true
    }

    /// `taskResponse` covers the responses FoundationNetworking completes without a
    /// `didReceive response` callback (a 3xx without a Location header, whose body it drops).
    func complete(_ error: (any Error)?, taskResponse: URLResponse?) {
        if let error {
            let urlError = error as? URLError
            finish(.failure(.transport(code: (urlError?.code ?? .unknown).rawValue, description: error.localizedDescription)))
            return
        }
        let (received, body) = lock.withLock { (self.response, self.body) }
        guard let response = received ?? taskResponse as? HTTPURLResponse else {
            finish(.failure(.transport(code: URLError.Code.badServerResponse.rawValue, description: "the server sent no HTTP response")))
            return
        }
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            headers[String(describing: name).lowercased()] = String(describing: value)
        }
        progress?.received(body.count, complete: true) // before the caller wakes and closes it
        finish(.success(.init(status: response.statusCode, headers: headers, body: body)))
    }
}

/// The session's delegate: hands each callback to the exchange of its task.
private final class ExchangeRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var exchanges: [Int: Exchange] = [:]

    func register(_ exchange: Exchange, for task: Int) {
        lock.withLock { exchanges[task] = exchange }
    }

    func remove(_ task: Int) {
        _ = lock.withLock { exchanges.removeValue(forKey: task) }
    }

    private func exchange(_ task: URLSessionTask) -> Exchange? {
        lock.withLock { exchanges[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let exchange = exchange(dataTask), exchange.receive(response) else {
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let exchange = exchange(dataTask), exchange.receive(data) else {
            dataTask.cancel()
            return
        }
    }

    /// A redirect not to follow ends the task with the 3xx answer, its Location header and all.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        guard let exchange = exchange(task), !exchange.followsRedirects else {
            completionHandler(request)
            return
        }
        _ = exchange.receive(response)
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        exchange(task)?.complete(error, taskResponse: task.response)
    }
}
