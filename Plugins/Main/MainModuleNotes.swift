// Main module — design notes (kept as a Swift comment: a README.md in the target folder makes
// SwiftPM warn about an unhandled file, and Package.swift is not this module's to change).
//
// # Main module (`main` 1.0.0)
//
// The currency converter of the seed article as a Den VIPER module: pick an input and an output
// currency, type an amount, read the result; "Info" opens About (route `about`).
//
// ## Routes
//
// | route | opens |
// |---|---|
// | `main` | the converter with the last saved from/to/amount (default 100 USD → EUR) |
// | `convert/<double:amount>/<string:from>/<string:to>` | the converter with these values; codes in any case (`convert/12.5/usd/jpy`). An unknown code or a bad amount is refused with `ModuleError.invalidParameter` naming the valid codes / the rule. |
//
// ## Layers (one folder each)
//
// - `View/` `MainView` (ViewObject → DenKit `Screen`, events → presenter), `MainViewObject` (strings only).
// - `Presenter/` `MainPresenter`, `AmountInput` (input rules), `AmountFormatter` (output), `MainStateCodec` (hot swap).
// - `Interactor/` `MainInteractor` (facade over rates + settings), its protocols, and the service protocols it
//   needs (`SettingsStore`, `RatesFetching`).
// - `Entity/` `Currency`, `ExchangeRates` (+ cross rates), `Conversion`, `SavedConversion`, `RatesLoad`/`RatesNotice`.
// - `Router/` `MainRouter` (`navigation.navigate(to: "about")`; Main never imports About).
// - `Builder/` `MainBuilder` (assembles and injects; validates deep links), `MainDependencies`.
// - `Services/` `RatesService` + `BundledRatesProvider` / `HTTPRatesProvider`, `ECBRatesParser` (XMLParser),
//   `RatesCache`, `BundledRates` (generated constant), `HostAdapters` (to DenKit `KeyValueStore` / `HTTPFetching`).
// - `Entry/` the `@_cdecl("den_module_entry")` export only (its own target, so unit tests can link several modules).
//
// Ownership per DenKit `VIPERRoles`: view → presenter strong; presenter → interactor, router strong;
// interactor → presenter weak; router → view weak. The view pulls `presenter.viewObject` after each event,
// so the presenter holds no view. `MainModuleTests` checks that a released instance frees the whole stack.
//
// ## Decisions
//
// - **Input** (checked when the form is submitted): surrounding spaces ignored; empty = 0; ASCII digits and
//   one separator only, a comma is a dot; ".5" = 0.5, "5." = 5; no leading zeros ("00", "05" refused; "0",
//   "0.5" fine); at most 15 integer and 6 fraction digits. Refused input is **never applied**: the field keeps
//   the previous valid amount and shows an error saying what was typed and what is allowed. An unknown
//   currency in a field keeps the previous currency and shows an error banner listing the codes.
// - **Output**: `Decimal` throughout; '.' separator, no grouping, any locale. Money: at most 2 fraction
//   digits, rounded **down** (toward zero); a whole result drops ".00" ("5"), otherwise both digits are kept
//   ("12.99", "1234567.50", "0.10"). Rates: 4 fraction digits rounded half-up ("0.8909"), 4 significant
//   digits below 0.1 ("0.005650"). Cross rates go through EUR as `amount × to ÷ from` (multiply first).
// - **Rates**: offline by default — start from the cached download if any, else the bundled ECB snapshot of
//   2026-10-02 (no network at start). "Reload rates" fetches the URL in storage key `config.rates_url`
//   (Main's namespace), else the environment variable `DEN_MAIN_RATES_URL`; without one it says the rates
//   stay offline. A fetched document is fully validated, then applied and cached (key `rates.cache`, the
//   document base64 + URL + date). Any failure — network, HTTP status, garbage/partial XML, bad URL — keeps
//   the cache or the snapshot and shows a banner naming the rates and date used.
// - **Saved**: `last_conversion` (from/to/amount JSON) is written on Convert and Swap, read at start.
// - **Hot swap**: `{"v":1,"from":..,"to":..,"amount":..}`; restore validates everything or changes nothing.
// - **Bundled rates**: not a SwiftPM resource (DESIGN §2); `Services/BundledRates.swift` holds the file's exact
//   bytes, with the command that regenerates it in its header; a test compares it with `../shared/data`.
