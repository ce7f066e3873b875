import Foundation

/// The last rates fetched over HTTP, kept in storage with their URL and reference date. The
/// document itself is stored and parsed again on load, so a damaged entry is refused as a whole.
struct RatesCache {
    struct Entry: Codable, Equatable {
        var v = 1
        var url: String
        var date: String
        /// The fetched document, base64 (its bytes exactly, whatever its encoding).
        var document: String
    }

    let store: any SettingsStore
    /// The cache is checked like a fresh download: an entry written by an older Main, or
    /// damaged on disk, must not bring back rates a download would be refused for.
    var plausibility: RatesPlausibility = .standard()

    /// The cached rates (source `.cached`), nil when nothing is cached; throws when the entry
    /// cannot be read or no longer parses.
    func load() throws -> ExchangeRates? {
        guard let text = try store.string(forKey: SettingsKey.ratesCache) else { return nil }
        let entry: Entry
        do {
            entry = try JSONDecoder().decode(Entry.self, from: Data(text.utf8))
        } catch {
            throw RatesCacheError("the cache entry is not readable JSON (\(error))")
        }
        guard entry.v == 1 else { throw RatesCacheError("the cache entry has unknown version \(entry.v)") }
        guard let document = Data(base64Encoded: entry.document) else {
            throw RatesCacheError("the cached document is not valid base64")
        }
        let rates = try ECBRatesParser.parse(document, source: .cached(url: entry.url))
        try plausibility.check(rates)
        return rates
    }

    func save(document: Data, rates: ExchangeRates, url: String) throws {
        let entry = Entry(url: url, date: rates.date, document: document.base64EncodedString())
        let data = try JSONEncoder().encode(entry)
        try store.set(String(decoding: data, as: UTF8.self), forKey: SettingsKey.ratesCache)
    }
}

struct RatesCacheError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
