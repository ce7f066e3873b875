import DenKit

/// Main's settings, declared to the host at load (`ModuleDefinition.settings`), so
/// `den config show main` lists them and `den config set` refuses typos and bad values. Stored
/// as `config.<name>` in Main's namespace; the interactor reads them through `ModuleSettings`,
/// which falls back to the default (and says so) for a stored value that breaks the rule.
enum MainSettings {
    /// The ECB's daily reference rates: Reload works out of the box with a network. Main still
    /// never fetches at start (offline by default: cache, else the bundled snapshot).
    static let ecbDailyURL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"

    static let ratesURL = SettingDefinition(
        "rates_url", kind: .url, default: ecbDailyURL,
        help: "The ECB eurofxref-daily.xml document that Reload rates fetches (never fetched at start).",
        emptyMeans: "no download; Reload re-reads the cached or bundled rates")

    /// Whole seconds; at most 25, so a fetch always ends before den's default 30 s call limit
    /// (`--call-timeout`) would give up on the whole Reload and close the screen.
    static let fetchTimeout = SettingDefinition(
        "fetch_timeout", kind: .integer, default: "10",
        help: "Seconds Reload rates waits for the rates server before keeping the rates it has.",
        minimum: 1, maximum: 25)

    static let all = [ratesURL, fetchTimeout]
}
