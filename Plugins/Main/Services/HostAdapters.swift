import DenKit
import Foundation

// Thin adapters from the interactor's own service protocols to DenKit's host clients.

/// `SettingsStore` over DenKit's `KeyValueStore` (the host's `storage.*`, namespaced to `main`).
final class KeyValueSettingsStore: SettingsStore {
    private let store: any KeyValueStore

    init(_ store: any KeyValueStore) {
        self.store = store
    }

    func string(forKey key: String) throws -> String? {
        try store.get(key)
    }

    func set(_ value: String?, forKey key: String) throws {
        if let value {
            try store.set(value, forKey: key)
        } else {
            try store.delete(key)
        }
    }
}

/// `RatesFetching` over DenKit's `HTTPFetching` (the host's `http.get`): 10 s deadline, body
/// limited to what the parser accepts, and any non-2xx status is an error naming it.
struct HTTPRatesFetcher: RatesFetching {
    static let timeout: Duration = .seconds(10)

    private let http: any HTTPFetching

    init(_ http: any HTTPFetching) {
        self.http = http
    }

    func get(_ url: String) throws -> Data {
        let response = try http.get(url, timeout: Self.timeout, maxBytes: ECBRatesParser.sizeLimit,
                                    headers: ["Accept": "application/xml, text/xml"])
        guard response.isSuccess else { throw HTTPStatusError(url: url, status: response.status) }
        return response.body
    }
}

struct HTTPStatusError: Error, CustomStringConvertible, Equatable {
    let url: String
    let status: Int

    var description: String { "the server answered HTTP \(status) for \(url)" }
}
