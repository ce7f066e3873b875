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

/// The visitor's last conversion: a logged-in account's in the module's storage under its name
/// (it follows the account), anybody else's in the UI session's values (`session.*`), which die
/// with the session: a browser's, or the terminal's, which den run keeps across runs. Never one
/// value for every visitor.
final class VisitorConversionMemory: ConversionMemory {
    private let settings: any SettingsStore
    private let session: any SessionValues

    init(settings: any SettingsStore, session: any SessionValues) {
        self.settings = settings
        self.session = session
    }

    func recall() throws -> String? {
        if let user = try session.loggedInUser() { return try settings.string(forKey: SettingsKey.lastConversion(of: user)) }
        return try session.get(SettingsKey.lastConversion)
    }

    func keep(_ text: String) throws {
        if let user = try session.loggedInUser() { return try settings.set(text, forKey: SettingsKey.lastConversion(of: user)) }
        try session.set(text, forKey: SettingsKey.lastConversion)
    }
}

/// `RatesFetching` over DenKit's `HTTPFetching` (the host's `http.get`): the `fetch_timeout`
/// deadline, body limited to what the parser accepts, and any non-2xx status is an error naming
/// it. The host's own limit messages speak to module authors ("raise timeout_ms"); they are
/// reworded here for the user, with only advice the user can follow.
struct HTTPRatesFetcher: RatesFetching {
    private let http: any HTTPFetching

    init(_ http: any HTTPFetching) {
        self.http = http
    }

    func get(_ url: String, timeout: Duration) throws -> Data {
        let response: HTTPResponse
        do {
            response = try http.get(url, timeout: timeout, maxBytes: ECBRatesParser.sizeLimit,
                                    headers: ["Accept": "application/xml, text/xml"])
        } catch {
            throw RatesFetchError(hostMessage: String(describing: error), timeout: timeout)
        }
        guard response.isSuccess else { throw HTTPStatusError(url: url, status: response.status) }
        return response.body
    }
}

/// A failed fetch in the user's words.
struct RatesFetchError: Error, CustomStringConvertible, Equatable {
    let description: String

    init(hostMessage: String, timeout: Duration) {
        let seconds = timeout.components.seconds
        let limit = MainManifest.Settings.fetchTimeout.maximum ?? 60
        if hostMessage.contains("timed out") {
            description = "the server did not answer within \(seconds) s; try again later"
                + (seconds < limit ? ", or allow longer with `den config set main fetch_timeout \(limit)`" : "")
        } else if hostMessage.contains("max_bytes") {
            description = "the server sent more than \(ECBRatesParser.sizeLimit / 1024) KB, far more than a daily rates file; "
                + "check the rates_url setting (`den config show main`)"
        } else {
            description = hostMessage
        }
    }
}

struct HTTPStatusError: Error, CustomStringConvertible, Equatable {
    let url: String
    let status: Int

    var description: String { "the server answered HTTP \(status) for \(url)" }
}
