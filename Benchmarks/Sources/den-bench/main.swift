// den-bench: Den's speed figures, each as a ratio to a baseline measured in the same run.
// Usage: den-bench --den-bin <root package release bin folder> [--hello <path>]
//                  [--only load|router|process|calls|exports|permissions|login|web|metrics|tracing|swap|startup|monolith|attack|isolation|signing|catalog]... [--export-batch N] [--export-samples N]
//                  [--copies N] [--requests N] [--rounds N] [--runs N] [--calls N] [--logins N]
//                  [--web-seconds N] [--web-rounds N] [--connections N] [--wrk PATH]
//                  [--no-breakdown] [--swaps N] [--live N] [--module-counts 1,10,100] [--signing-counts 1,100]
//                  [--isolation-events N] [--isolation-crashes N] [--isolation-starts N] [--isolation-web-seconds N] [--isolation-web-rounds N]
//                  [--metrics-seconds N] [--metrics-rounds N]
//                  [--monolith PATH] [--monolith-seconds N] [--monolith-rounds N] [--monolith-data DIR] [--monolith-pages list,add,reopen]
//                  [--catalog-runs N] [--catalog-rounds N] [--catalog-module PATH]
// Scripts/bench.sh builds everything and passes the paths.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
// The isolation figure's baseline spawns this program as its socketpair peer.
if arguments.first == "--echo-peer", arguments.count == 3, let request = Int(arguments[1]), let reply = Int(arguments[2]) {
    SocketPairBench.echoPeer(request: request, reply: reply)
}
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
func intOption(_ name: String, _ fallback: Int) -> Int { option(name).flatMap(Int.init) ?? fallback }
let only = Set(arguments.indices.filter { arguments[$0] == "--only" && $0 + 1 < arguments.count }.map { arguments[$0 + 1] })
func wanted(_ name: String) -> Bool { only.isEmpty || only.contains(name) }

guard let denBin = option("--den-bin") ?? ProcessInfo.processInfo.environment["DEN_BIN_DIR"] else {
    FileHandle.standardError.write(Data("den-bench: give --den-bin <folder with den and libAboutModule.so> (Scripts/bench.sh does)\n".utf8))
    exit(2)
}
let ownFolder = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    .deletingLastPathComponent()
let helloPath = option("--hello") ?? ownFolder.appendingPathComponent("hello").path
let work = FileManager.default.temporaryDirectory.appendingPathComponent("den-bench-\(getpid())", isDirectory: true)
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)

/// The 1-minute load average, to judge how noisy the figures are.
func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "?"
}
let loadBefore = loadAverage()

struct Row {
    var figure: String
    var den: String
    var baseline: String
    var ratio: String
    var goal: String
    var verdict: String
}
var rows: [Row] = []
var details: [String] = []
var problems: [String] = []

// MARK: 1. Plugin load + register
if wanted("load") {
    let copies = intOption("--copies", 50)
    let bench = PluginLoadBench(plugin: URL(fileURLWithPath: denBin).appendingPathComponent("libAboutModule.so"),
                                copies: copies, workDirectory: work.appendingPathComponent("load"))
    let r = try bench.run()
    problems += r.failures.prefix(5).map { "plugin load: \($0)" }
    let warmRatio = r.warmTotal.median / r.bare.median
    let coldRatio = r.coldTotal.median / r.bare.median
    let verdict = switch (warmRatio <= 3, r.warmTotal.median <= 300_000) {
    case (true, true): "MET"
    case (true, false): "MISSED (> 0.3 ms)"
    case (false, true): "MISSED (> 3×)"
    case (false, false): "MISSED"
    }
    rows.append(Row(figure: "plugin load+register (warm)", den: milliseconds(r.warmTotal.median),
                    baseline: "dlopen " + milliseconds(r.bare.median), ratio: ratio(warmRatio),
                    goal: "≤ 3× and ≤ 0.3 ms", verdict: verdict))
    rows.append(Row(figure: "plugin load+register (cold)", den: milliseconds(r.coldTotal.median),
                    baseline: "dlopen " + milliseconds(r.bare.median), ratio: ratio(coldRatio),
                    goal: "(copy into cache included)", verdict: "info"))
    details.append("plugin load: \(copies) fresh images per kind (bare / warm / cold, in rotation), medians (p90):")
    details.append("  bare dlopen            \(milliseconds(r.bare.median)) (\(milliseconds(r.bare.p90)))")
    details.append("  Den warm, total        \(milliseconds(r.warmTotal.median)) (\(milliseconds(r.warmTotal.p90)))")
    details.append("    PluginLoader.load    \(milliseconds(r.warmLoad.median)) (\(milliseconds(r.warmLoad.p90)))")
    details.append("    ModuleRegistry.install \(milliseconds(r.warmInstall.median)) (\(milliseconds(r.warmInstall.p90)))")
    details.append("      of which PluginCache.stage (copy already there) \(milliseconds(r.warmStage.median)) (\(milliseconds(r.warmStage.p90))), timed apart")
    details.append("  Den cold, total        \(milliseconds(r.coldTotal.median)) (\(milliseconds(r.coldTotal.p90)))")
}

// MARK: 2. Route resolution
if wanted("router") {
    let bench = RouterBench(requestCount: intOption("--requests", 10_000), rounds: intOption("--rounds", 30))
    let r = try bench.run()
    let n = Double(r.requestCount)
    let den = n / (r.den.median / 1e9)
    let kit = n / (r.routingKit.median / 1e9)
    let kitSplit = n / (r.routingKitSplit.median / 1e9)
    if r.mismatches > 0 { problems.append("router: \(r.mismatches) requests got different routes: \(r.firstMismatches.joined(separator: "; "))") }
    rows.append(Row(figure: "route resolution (\(r.routeCount) routes)", den: rate(den),
                    baseline: "RoutingKit " + rate(kit), ratio: ratio(den / kit),
                    goal: "≥ 2× (RoutingKit pre-split)", verdict: den / kit >= 2 ? "MET" : "MISSED"))
    rows.append(Row(figure: "  same, RoutingKit incl. split", den: rate(den),
                    baseline: "RoutingKit " + rate(kitSplit), ratio: ratio(den / kitSplit),
                    goal: "(split(\"/\") in the loop)", verdict: "info"))
    let bird = n / (r.hummingbird.median / 1e9)
    if r.hummingbirdMismatches > 0 {
        details.append("router: \(r.hummingbirdMismatches) requests got a different route from Hummingbird (its matching rules differ; timed anyway): \(r.firstHummingbirdMismatches.joined(separator: "; "))")
    }
    rows.append(Row(figure: "  vs Hummingbird's trie", den: rate(den),
                    baseline: "Hummingbird " + rate(bird), ratio: ratio(den / bird),
                    goal: "≥ 1×", verdict: den / bird >= 1 ? "MET" : "MISSED"))
    let mix = ["literal", "placeholder", "catch-all", "miss"].map { "\($0) \(r.mix[$0, default: 0])" }.joined(separator: ", ")
    details.append("router: \(r.requestCount) requests (\(mix)); mismatches between the routers: \(r.mismatches)")
    details.append("  per pass, median (p90): Den \(milliseconds(r.den.median)) (\(milliseconds(r.den.p90))), "
        + "RoutingKit \(milliseconds(r.routingKit.median)) (\(milliseconds(r.routingKit.p90))), "
        + "RoutingKit+split \(milliseconds(r.routingKitSplit.median)) (\(milliseconds(r.routingKitSplit.p90))), "
        + "Hummingbird \(milliseconds(r.hummingbird.median)) (\(milliseconds(r.hummingbird.p90))); \(r.den.count) passes each")
    details.append("  per request, median: Den \(fixed(r.den.median / n, 0)) ns, RoutingKit \(fixed(r.routingKit.median / n, 0)) ns, "
        + "RoutingKit+split \(fixed(r.routingKitSplit.median / n, 0)) ns, Hummingbird \(fixed(r.hummingbird.median / n, 0)) ns")
}

// MARK: 3. Process time
if wanted("process") {
    let bench = ProcessBench(denPath: URL(fileURLWithPath: denBin).appendingPathComponent("den").path,
                             helloFolder: URL(fileURLWithPath: helloPath).deletingLastPathComponent(),
                             runs: intOption("--runs", 30), breakdown: !arguments.contains("--no-breakdown"),
                             workDirectory: work.appendingPathComponent("process"))
    let r = try bench.run()
    problems += r.failures.prefix(5).map { "process: \($0)" }
    let den = r.samples(ProcessBench.den), hello = r.samples(ProcessBench.hello)
    let processRatio = den.median / hello.median
    rows.append(Row(figure: "den render about (process)", den: milliseconds(den.median, digits: 1),
                    baseline: "hello " + milliseconds(hello.median, digits: 1), ratio: ratio(processRatio),
                    goal: "≤ 2×", verdict: processRatio <= 2 ? "MET" : "MISSED"))
    details.append("process: \(den.count) runs of each command, in rotation, after 5 warm-ups; median (p90), ratio to hello:")
    for command in r.commands {
        details.append("  " + pad(command.label, 44) + pad(milliseconds(command.samples.median, digits: 1), 10)
            + pad("(" + milliseconds(command.samples.p90, digits: 1) + ")", 12) + ratio(command.samples.median / hello.median))
    }
}

// MARK: 4. Call guard
if wanted("calls") {
    let bench = CallGuardBench(plugin: URL(fileURLWithPath: denBin).appendingPathComponent("libAboutModule.so"),
                               calls: intOption("--calls", 2000), workDirectory: work.appendingPathComponent("calls"))
    let r = try bench.run()
    problems += r.failures.prefix(5).map { "call guard: \($0)" }
    let overhead = r.guarded.median - r.direct.median
    rows.append(Row(figure: "call guard per module call", den: milliseconds(r.guarded.median),
                    baseline: "event round trip " + milliseconds(r.roundTrip.median), ratio: ratio(overhead / r.roundTrip.median),
                    goal: "(share of a round trip)", verdict: "info"))
    details.append("call guard: \(r.guarded.count) calls of each kind, in rotation, after 20 warm-ups; median (p90):")
    details.append("  empty call, direct               \(milliseconds(r.direct.median)) (\(milliseconds(r.direct.p90)))")
    details.append("  empty call, guarded               \(milliseconds(r.guarded.median)) (\(milliseconds(r.guarded.p90)))")
    details.append("  empty call on a thread of its own \(milliseconds(r.ownThread.median)) (\(milliseconds(r.ownThread.p90))) (a hand-over, for scale)")
    details.append("  About event round trip (guarded)  \(milliseconds(r.roundTrip.median)) (\(milliseconds(r.roundTrip.p90)))")
}

// MARK: 4a. Permissions at the service boundary
if wanted("permissions") {
    let bench = PermissionBench(denBin: URL(fileURLWithPath: denBin), storageCalls: intOption("--permission-calls", 20000), httpCalls: intOption("--permission-http-calls", 400),
                                workDirectory: work.appendingPathComponent("permissions"))
    let r = try bench.run()
    problems += r.failures.prefix(5).map { "permissions: \($0)" }
    func micros(_ value: Double) -> String { fixed(value / 1000, 2) + " µs" }
    for (label, checked, unchecked) in [("storage.get round trip, checked", r.storageChecked, r.storageUnchecked),
                                        ("http.get refused by 127.0.0.1, checked", r.httpChecked, r.httpUnchecked)] {
        let value = checked.median / unchecked.median
        rows.append(Row(figure: label, den: micros(checked.median), baseline: "unchecked " + micros(unchecked.median),
                        ratio: ratio(value), goal: "≤ 1.05×", verdict: value <= 1.05 ? "MET" : "MISSED"))
    }
    details.append("permissions: \(r.storageChecked.count) storage.get and \(r.httpChecked.count) http.get of each kind, alternating, after warm-ups; median (p90):")
    details.append("  storage.get checked   \(micros(r.storageChecked.median)) (\(micros(r.storageChecked.p90)))")
    details.append("  storage.get unchecked \(micros(r.storageUnchecked.median)) (\(micros(r.storageUnchecked.p90)))")
    details.append("  http.get checked      \(micros(r.httpChecked.median)) (\(micros(r.httpChecked.p90)))")
    details.append("  http.get unchecked    \(micros(r.httpUnchecked.median)) (\(micros(r.httpUnchecked.p90)))")
}

// MARK: 4b. Exports (libffi)
if wanted("exports") {
    let bench = ExportsBench(plugin: URL(fileURLWithPath: denBin).appendingPathComponent("libDenFixtureExports.so"),
                             batch: intOption("--export-batch", 2000), samples: intOption("--export-samples", 30),
                             workDirectory: work.appendingPathComponent("exports"))
    let r = try bench.run()
    problems += r.failures.prefix(5).map { "exports: \($0)" }
    func nanos(_ value: Double) -> String { fixed(value, 0) + " ns" }
    for (label, figures) in [("add(i64, i64) -> i64", r.add), ("greet(string) -> string", r.greet)] {
        rows.append(Row(figure: "export call \(label) via ffi_call", den: nanos(figures.host.median),
                        baseline: "direct C " + nanos(figures.direct.median), ratio: ratio(figures.host.median / figures.direct.median),
                        goal: "(per call)", verdict: "info"))
        rows.append(Row(figure: "  exports.call service (JSON in/out)", den: nanos(figures.service.median),
                        baseline: "direct C " + nanos(figures.direct.median), ratio: ratio(figures.service.median / figures.direct.median),
                        goal: "(per call)", verdict: "info"))
    }
    details.append("exports: \(r.add.direct.count) samples of \(bench.batch) calls per kind, after 3 warm-ups; per-call median (p90):")
    for (label, figures) in [("add", r.add), ("greet", r.greet)] {
        details.append("  \(label): direct \(nanos(figures.direct.median)) (\(nanos(figures.direct.p90))), host ffi_call \(nanos(figures.host.median)) (\(nanos(figures.host.p90))), exports.call \(nanos(figures.service.median)) (\(nanos(figures.service.p90)))")
    }
}

// MARK: 5. Login
if wanted("login") {
    let bench = LoginBench(logins: intOption("--logins", 15), workDirectory: work.appendingPathComponent("login"))
    let r = try bench.run()
    problems += r.failures.prefix(5).map { "login: \($0)" }
    rows.append(Row(figure: "login (verify + record)", den: milliseconds(r.good.median, digits: 1),
                    baseline: "scrypt " + milliseconds(r.bare.median, digits: 1), ratio: ratio(r.good.median / r.bare.median),
                    goal: "≈ 1× and ≈ 100 ms", verdict: "info"))
    rows.append(Row(figure: "  unknown user vs good login", den: milliseconds(r.unknown.median, digits: 1),
                    baseline: "good " + milliseconds(r.good.median, digits: 1), ratio: ratio(r.unknown.median / r.good.median),
                    goal: "≈ 1× (tells nothing)", verdict: "info"))
    details.append("login: \(bench.parameters) (\(128 * bench.parameters.blockSize * bench.parameters.rounds / (1 << 20)) MiB), \(r.good.count) rounds of each kind after 2 warm-ups, SQLite in a temp folder; median (p90):")
    details.append("  bare KDF.Scrypt.deriveKey          \(milliseconds(r.bare.median, digits: 1)) (\(milliseconds(r.bare.p90, digits: 1)))")
    details.append("  register (hash + write)            \(milliseconds(r.register.median, digits: 1)) (\(milliseconds(r.register.p90, digits: 1)))")
    details.append("  login, right password              \(milliseconds(r.good.median, digits: 1)) (\(milliseconds(r.good.p90, digits: 1)))")
    details.append("  login, wrong password              \(milliseconds(r.wrong.median, digits: 1)) (\(milliseconds(r.wrong.p90, digits: 1)))")
    details.append("  login, unknown user                \(milliseconds(r.unknown.median, digits: 1)) (\(milliseconds(r.unknown.p90, digits: 1)))")
}

// MARK: 11. den serve under attack: guesses an attacker gets, and a long jogs list
if wanted("attack") {
    let bench = AttackBench(denPath: URL(fileURLWithPath: denBin).appendingPathComponent("den").path,
                            workDirectory: work.appendingPathComponent("attack"), seconds: Double(intOption("--attack-seconds", 5)),
                            jogRequests: intOption("--jog-requests", 15))
    let r = try bench.run()
    problems += r.failures.prefix(5).map { "attack: \($0)" }
    func guesses(_ g: AttackBench.Guessing) -> String { fixed(g.perSecond, 2) + "/s" }
    for (label, pair) in [("guesses at one account", r.oneAccount), ("guesses across accounts, 1 address", r.manyAccounts)] {
        guard let (baseline, throttled) = pair else { continue }
        rows.append(Row(figure: label, den: guesses(throttled), baseline: "unthrottled " + guesses(baseline),
                        ratio: ratio(throttled.perSecond / baseline.perSecond), goal: "growing delays", verdict: "info"))
        details.append("attack: \(label): \(fixed(throttled.seconds, 1)) s of one attacker connection; checked \(throttled.checked), told to wait \(throttled.throttled); unthrottled (max_failed_attempts 100) checked \(baseline.checked) in \(fixed(baseline.seconds, 1)) s")
    }
    rows.append(Row(figure: "GET /jogs, 20,000 jogs (reopened)", den: milliseconds(r.bigList.median, digits: 1),
                    baseline: "50 jogs " + milliseconds(r.smallList.median, digits: 1), ratio: ratio(r.bigList.median / r.smallList.median),
                    goal: "one page either way", verdict: "info"))
    details.append("attack: GET /jogs?r=<n>, \(r.bigList.count) requests each after 2 warm-ups; median (p90): 20,000 jogs \(milliseconds(r.bigList.median, digits: 1)) (\(milliseconds(r.bigList.p90, digits: 1))), \(r.bigBytes) bytes; 50 jogs \(milliseconds(r.smallList.median, digits: 1)) (\(milliseconds(r.smallList.p90, digits: 1))), \(r.smallBytes) bytes")
}

// MARK: 6. The browser front-end under load
if wanted("web") {
    let wrk = option("--wrk") ?? "/usr/bin/wrk"
    let bench = WebBench(denPath: URL(fileURLWithPath: denBin).appendingPathComponent("den").path, wrkPath: wrk,
                         seconds: intOption("--web-seconds", 3), rounds: intOption("--web-rounds", 7),
                         connections: intOption("--connections", 16),
                         workDirectory: work.appendingPathComponent("web"))
    let r = try bench.run()
    problems += r.failures.prefix(5).map { "web: \($0)" }
    if let page = r.page, let bare = r.bare, let share = r.ratio {
        rows.append(Row(figure: "GET /about (den serve)", den: rate(page.requestsPerSecond),
                        baseline: "/_health " + rate(bare.requestsPerSecond), ratio: ratio(share),
                        goal: "≥ 0.8× the bare route", verdict: share >= 0.8 ? "MET" : "MISSED"))
        details.append("web: wrk, 2 threads, \(bench.connections) connections, \(bench.rounds) rounds of \(bench.seconds) s each, \(WebBench.sessions) sessions' cookies in turn")
        details.append("  ratio per round: " + r.ratios.map { fixed($0, 2) }.joined(separator: " ") + "; the median round, req/s and p99:")
        details.append("  GET /about     \(rate(page.requestsPerSecond))  p99 \(fixed(page.p99Milliseconds, 2)) ms")
        details.append("  GET /_health   \(rate(bare.requestsPerSecond))  p99 \(fixed(bare.p99Milliseconds, 2)) ms")
    }
}

// MARK: 6m. What den serve --metrics costs (figures 6 and 10 with metrics on against off)
if wanted("metrics") {
    let wrk = option("--wrk") ?? "/usr/bin/wrk"
    let bench = MetricsBench(denPath: URL(fileURLWithPath: denBin).appendingPathComponent("den").path, wrkPath: wrk,
                             seconds: intOption("--metrics-seconds", 3), rounds: intOption("--metrics-rounds", 7),
                             connections: intOption("--connections", 16), workDirectory: work.appendingPathComponent("metrics"))
    let r = try bench.run()
    problems += r.failures.prefix(5).map { "metrics: \($0)" }
    for (label, page) in [("GET /about, --metrics on", r.about), ("GET /jogs (50 jogs, logged in), --metrics on", r.list)] {
        guard let on = page.on, let off = page.off, let share = page.ratio else { continue }
        rows.append(Row(figure: label, den: rate(on.requestsPerSecond), baseline: "off " + rate(off.requestsPerSecond), ratio: ratio(share),
                        goal: "≥ 0.97× (≤ 3 % cost)", verdict: share >= 0.97 ? "MET" : "MISSED"))
    }
    details.append("metrics: two den serve side by side (about, login, jogs), one with --metrics 127.0.0.1:0; wrk 2 threads, \(bench.connections) connections, \(bench.rounds) rounds of \(bench.seconds) s per page and den, alternating which goes first; the measured den counted \(Int(r.counted ?? 0)) requests at /metrics")
    for (label, page) in [("GET /about", r.about), ("GET /jogs", r.list)] {
        guard let on = page.on, let off = page.off else { continue }
        details.append("  \(label): ratio per round " + page.ratios.map { fixed($0, 2) }.joined(separator: " ")
                       + "; median round on \(rate(on.requestsPerSecond)) p99 \(fixed(on.p99Milliseconds, 2)) ms, off \(rate(off.requestsPerSecond)) p99 \(fixed(off.p99Milliseconds, 2)) ms")
    }
}

// MARK: 6t. What den serve --otlp-endpoint costs (figures 6 and 10 with tracing on against off)
if wanted("tracing") {
    let wrk = option("--wrk") ?? "/usr/bin/wrk"
    let bench = TracingBench(metrics: MetricsBench(denPath: URL(fileURLWithPath: denBin).appendingPathComponent("den").path, wrkPath: wrk,
                                                   seconds: intOption("--metrics-seconds", 3), rounds: intOption("--metrics-rounds", 7),
                                                   connections: intOption("--connections", 16), workDirectory: work.appendingPathComponent("tracing")))
    let r = try bench.run()
    problems += r.figures.failures.prefix(5).map { "tracing: \($0)" }
    for (label, page) in [("GET /about, --otlp-endpoint on", r.figures.about), ("GET /jogs (50 jogs, logged in), --otlp-endpoint on", r.figures.list)] {
        guard let on = page.on, let off = page.off, let share = page.ratio else { continue }
        rows.append(Row(figure: label, den: rate(on.requestsPerSecond), baseline: "off " + rate(off.requestsPerSecond), ratio: ratio(share),
                        goal: "report", verdict: "info"))
    }
    details.append("tracing: two den serve side by side (about, login, jogs), one with --otlp-endpoint to a receiver on this machine that reads and drops each batch; every request sampled; wrk 2 threads, \(bench.metrics.connections) connections, \(bench.metrics.rounds) rounds of \(bench.metrics.seconds) s per page and den, alternating which goes first; the receiver got \(r.batches) batches, \(r.bytes / 1024) KiB")
    for (label, page) in [("GET /about", r.figures.about), ("GET /jogs", r.figures.list)] {
        guard let on = page.on, let off = page.off else { continue }
        details.append("  \(label): ratio per round " + page.ratios.map { fixed($0, 2) }.joined(separator: " ")
                       + "; median round on \(rate(on.requestsPerSecond)) p99 \(fixed(on.p99Milliseconds, 2)) ms, off \(rate(off.requestsPerSecond)) p99 \(fixed(off.p99Milliseconds, 2)) ms")
    }
}

// MARK: 10. Den against the monolith a user would write instead
if wanted("monolith") {
    let wrk = option("--wrk") ?? "/usr/bin/wrk"
    var bench = MonolithBench(denPath: URL(fileURLWithPath: denBin).appendingPathComponent("den").path,
                              monolithPath: option("--monolith") ?? ownFolder.appendingPathComponent("jogs-monolith").path,
                              wrkPath: wrk, seconds: intOption("--monolith-seconds", 3), rounds: intOption("--monolith-rounds", 5),
                              connections: intOption("--connections", 16), workDirectory: work.appendingPathComponent("monolith"),
                              dataDirectory: option("--monolith-data").map { URL(fileURLWithPath: $0).appendingPathComponent("den-bench-\(getpid())") })
    if let pages = option("--monolith-pages") { bench.pages = pages.split(separator: ",").map(String.init) }
    defer { if let folder = bench.dataDirectory { try? FileManager.default.removeItem(at: folder) } }
    let r = try bench.run()
    problems += r.failures.prefix(5).map { "monolith: \($0)" }
    // The goal per page (nil: shown for information).
    let pages: [(String, MonolithBench.Page, Double?)] = [
        ("GET /jogs, 50 jogs (reload)", r.list, 0.9),
        ("add a jog (form + POST)", r.add, 0.75),
        ("  GET /jogs?r=n (reopened)", r.reopen, nil),
    ]
    // Requests per second; the add figure's few hundred a second need more digits than `rate` keeps.
    func perSecond(_ value: Double) -> String { value >= 10_000 ? rate(value) : fixed(value, 0) + "/s" }
    for (label, page, goal) in pages {
        guard let den = page.den, let monolith = page.monolith, let share = page.ratio else { continue }
        rows.append(Row(figure: label, den: perSecond(den.requestsPerSecond),
                        baseline: "monolith " + perSecond(monolith.requestsPerSecond), ratio: ratio(share),
                        goal: goal.map { "≥ \($0)× the monolith" } ?? "(den reads every time)",
                        verdict: goal.map { share >= $0 ? "MET" : "MISSED" } ?? "info"))
    }
    details.append("monolith: den serve --plugins login,jogs beside jogs-monolith (Hummingbird + GRDB, den's SQLite settings), wrk 2 threads, \(bench.connections) connections, \(bench.rounds) rounds of \(bench.seconds) s per page and app, alternating which goes first; SQLite files in \(bench.dataDirectory?.deletingLastPathComponent().path ?? FileManager.default.temporaryDirectory.path)")
    for (label, page, _) in pages {
        guard let den = page.den, let monolith = page.monolith else { continue }
        details.append("  \(pad(label.trimmingCharacters(in: .whitespaces), 30)) ratio per round: " + page.ratios.map { fixed($0, 2) }.joined(separator: " "))
        let latency = { (figure: MonolithBench.Figure) in
            label.hasPrefix("add") ? "mean \(fixed(figure.meanMilliseconds, 2)) ms per pair" : "p99 \(fixed(figure.p99Milliseconds, 2)) ms"
        }
        details.append("    median round: den \(perSecond(den.requestsPerSecond)) \(latency(den)), \(fixed(den.serverCores, 2)) cores; monolith \(perSecond(monolith.requestsPerSecond)) \(latency(monolith)), \(fixed(monolith.serverCores, 2)) cores")
    }
    details.append("  (add: each form + POST pair is 2 requests and stores 1 jog; jogs added per second are half the rates)")
    r.notes.forEach { details.append("  " + $0) }
}

// MARK: 8. Hot swap
if wanted("swap") {
    var bench = SwapBench(plugin: URL(fileURLWithPath: denBin).appendingPathComponent("libMainModule.so"),
                          rounds: intOption("--swaps", 30), liveInstances: intOption("--live", 10),
                          workDirectory: work.appendingPathComponent("swap"))
    if let targets = option("--retained-images") { bench.retainedTargets = targets.split(separator: ",").compactMap { Int($0) } }
    let r = try bench.run()
    problems += r.failures.prefix(5).map { "swap: \($0)" }
    rows.append(Row(figure: "hot swap, \(bench.liveInstances) live screens", den: milliseconds(r.swap.median, digits: 2),
                    baseline: "load " + milliseconds(r.plainLoad.median, digits: 2), ratio: ratio(r.swap.median / r.plainLoad.median),
                    goal: "≤ 50 ms median", verdict: r.swap.median <= 50e6 ? "MET" : "MISSED"))
    let beyond = r.beyondImagePerVersion / 1024
    rows.append(Row(figure: "memory per retained version", den: fixed(beyond, 0) + " KB beyond",
                    baseline: "image " + fixed(Double(r.imageBytes) / 1024, 0) + " KB", ratio: ratio(r.beyondImagePerVersion / Double(r.imageBytes)),
                    goal: "≤ 100 KB beyond the image", verdict: beyond <= 100 ? "MET" : "MISSED"))
    for point in r.firstOpen {
        rows.append(Row(figure: "first screen, \(point.retained) images", den: milliseconds(point.first, digits: 2),
                        baseline: "2nd " + milliseconds(point.second, digits: 2), ratio: ratio(point.first / point.second),
                        goal: "(DESIGN §2 growth)", verdict: "info"))
    }
    rows.append(Row(figure: "change noticed (inotify)", den: milliseconds(r.inotify.median, digits: 1),
                    baseline: "polling " + milliseconds(r.polling.median, digits: 1), ratio: ratio(r.inotify.median / r.polling.median),
                    goal: "(debounce 50 ms in both)", verdict: "info"))
    details.append("hot swap: libMainModule.so (release, \(r.imageBytes / 1024) KB), \(r.swap.count) swaps, medians (p90):")
    details.append("  swap, file stable → new version serving   \(milliseconds(r.swap.median, digits: 2)) (\(milliseconds(r.swap.p90, digits: 2)))")
    details.append("  the same, CPU time of the swapping thread \(milliseconds(r.swapCPU.median, digits: 2)) (\(milliseconds(r.swapCPU.p90, digits: 2))) (its share of a busy machine aside)")
    details.append("  plain load + install of the same plugin   \(milliseconds(r.plainLoad.median, digits: 2)) (\(milliseconds(r.plainLoad.p90, digits: 2)))")
    details.append("  per retained version over \(r.retainedRounds) swaps: anonymous \(fixed(r.anonPerVersion / 1024, 1)) KB, file-backed (image pages touched) \(fixed(r.filePerVersion / 1024, 1)) KB")
    details.append("    of the anonymous: in the image's own mappings (relocated data, .bss) \(fixed(r.imageAnonPerVersion / 1024, 1)) KB of its \(fixed(Double(r.writableSegmentBytes) / 1024, 0)) KB writable segment; beyond the image \(fixed(r.beyondImagePerVersion / 1024, 1)) KB")
    details.append("  change to report: inotify \(milliseconds(r.inotify.median, digits: 1)) (\(milliseconds(r.inotify.p90, digits: 1))), polling every 250 ms \(milliseconds(r.polling.median, digits: 1)) (\(milliseconds(r.polling.p90, digits: 1)))")
}

// MARK: 9. Start-up with many modules installed, lazy against eager
if wanted("startup") {
    let counts = (option("--module-counts") ?? "1,10,100").split(separator: ",").compactMap { Int($0) }.filter { $0 >= 1 }
    let bench = StartupBench(denPath: URL(fileURLWithPath: denBin).appendingPathComponent("den").path, helloPath: helloPath,
                             aboutPlugin: URL(fileURLWithPath: denBin).appendingPathComponent("libAboutModule.so"),
                             headerFolder: URL(fileURLWithPath: option("--den-include") ?? "Sources/CDenABI/include"),
                             counts: counts, runs: intOption("--runs", 20), workDirectory: work.appendingPathComponent("startup"))
    let r = try bench.run()
    problems += r.failures.prefix(5).map { "startup: \($0)" }
    if let one = r.lazy[counts.min() ?? 1], let most = r.lazy[counts.max() ?? 1], r.failures.isEmpty {
        let scaling = most.median / one.median
        rows.append(Row(figure: "render about, \(counts.max() ?? 1) modules lazy", den: milliseconds(most.median, digits: 1),
                        baseline: "\(counts.min() ?? 1) module " + milliseconds(one.median, digits: 1), ratio: ratio(scaling),
                        goal: "≤ 1.2×", verdict: scaling <= 1.2 ? "MET" : "MISSED"))
        details.append("startup: den render about with N modules installed (About + N-1 C modules with manifests), \(r.hello.count) runs each after 3 warm-ups; median (p90), ratio to hello:")
        details.append("  " + pad("hello", 24) + pad(milliseconds(r.hello.median, digits: 1), 10) + "(" + milliseconds(r.hello.p90, digits: 1) + ")")
        for count in counts.sorted() {
            for (label, samples) in [("lazy", r.lazy[count]), ("eager", r.eager[count])] {
                guard let samples else { continue }
                details.append("  " + pad("\(label), \(count) module\(count == 1 ? "" : "s")", 24) + pad(milliseconds(samples.median, digits: 1), 10)
                    + pad("(" + milliseconds(samples.p90, digits: 1) + ")", 12) + ratio(samples.median / r.hello.median) + " hello")
            }
        }
    }
}

// MARK: 12. Isolated modules
if wanted("isolation") {
    let bench = IsolationBench(plugin: URL(fileURLWithPath: denBin).appendingPathComponent("libDenFixtureFaults.so"),
                               den: URL(fileURLWithPath: denBin).appendingPathComponent("den"),
                               events: intOption("--isolation-events", 2000), crashes: intOption("--isolation-crashes", 50),
                               starts: intOption("--isolation-starts", 20), workDirectory: work.appendingPathComponent("isolation"))
    let r = try bench.run()
    problems += r.failures.prefix(5).map { "isolation: \($0)" }
    func micro(_ nanoseconds: Double) -> String { fixed(nanoseconds / 1e3, 1) + " µs" }
    // The isolated round trip's own baseline: the same bytes over a bare socketpair between
    // two processes, measured right after the events.
    var bare: [String: Samples] = [:]
    for route in ["faults", "faults/big"] {
        guard let bytes = r.bytesPerEvent[route] else { continue }
        do {
            bare[route] = try SocketPairBench(requestBytes: bytes.request, replyBytes: bytes.reply, roundTrips: bench.events).run()
        } catch {
            problems.append("isolation: socketpair baseline: \(error)")
        }
    }
    for (route, label) in [("faults", "small"), ("faults/big", "4 KiB")] {
        guard let isolated = r.isolated[route], let inProcess = r.inProcess[route] else { continue }
        if label == "small" {
            rows.append(Row(figure: "in-process event, small screen p50", den: micro(inProcess.median),
                            baseline: "-", ratio: "-", goal: "≤ 20 µs", verdict: inProcess.median <= 20_000 ? "MET" : "MISSED"))
        }
        let above = isolated.median - inProcess.median
        rows.append(Row(figure: "isolated event, \(label) screen p50", den: micro(isolated.median),
                        baseline: "in-process " + micro(inProcess.median), ratio: ratio(isolated.median / inProcess.median),
                        goal: "(info)", verdict: "info"))
        if let socket = bare[route], let bytes = r.bytesPerEvent[route] {
            let share = above / socket.median
            rows.append(Row(figure: "isolated overhead, \(label) screen p50", den: "+" + micro(above),
                            baseline: "socketpair \(bytes.request)+\(bytes.reply) B " + micro(socket.median), ratio: ratio(share),
                            goal: "≤ 1.1× socketpair", verdict: share <= 1.1 ? "MET" : "MISSED"))
        }
        rows.append(Row(figure: "isolated event, \(label) screen p99", den: micro(isolated.percentile(99)),
                        baseline: "in-process " + micro(inProcess.percentile(99)), ratio: ratio(isolated.percentile(99) / inProcess.percentile(99)),
                        goal: "(info)", verdict: "info"))
    }
    rows.append(Row(figure: "worker start to first screen", den: milliseconds(r.firstScreenIsolated.median, digits: 1),
                    baseline: "in-process " + milliseconds(r.firstScreenInProcess.median, digits: 1),
                    ratio: ratio(r.firstScreenIsolated.median / r.firstScreenInProcess.median), goal: "(info)", verdict: "info"))
    let crashP99 = r.crashToRestored.percentile(99)
    rows.append(Row(figure: "crash to restored screen p99", den: milliseconds(crashP99, digits: 1),
                    baseline: "isolated event " + micro(r.isolated["faults"]?.median ?? .nan), ratio: "-",
                    goal: "≤ 250 ms", verdict: crashP99 <= 250e6 ? "MET" : "MISSED"))
    let beyond = r.workerPrivate
    rows.append(Row(figure: "worker private memory", den: fixed(beyond / 1048576, 1) + " MiB",
                    baseline: "image " + fixed(r.moduleImage / 1048576, 2) + " MiB", ratio: "-",
                    goal: "≤ 8 MiB", verdict: beyond <= 8 * 1048576 ? "MET" : "MISSED"))
    details.append("isolation: \(r.isolated["faults"]?.count ?? 0) \"count\" events per host and screen, in rotation, after 50 warm-ups; median / p90 / p99:")
    for (route, label) in [("faults", "small"), ("faults/big", "4 KiB")] {
        for (host, samples) in [("in-process", r.inProcess[route]), ("isolated", r.isolated[route])] {
            guard let samples else { continue }
            details.append("  " + pad("\(label), \(host)", 24) + micro(samples.median) + " / " + micro(samples.p90) + " / " + micro(samples.percentile(99)))
        }
        if let socket = bare[route], let bytes = r.bytesPerEvent[route] {
            details.append("  " + pad("\(label), socketpair", 24) + micro(socket.median) + " / " + micro(socket.p90) + " / " + micro(socket.percentile(99))
                           + " (\(bytes.request) B out, \(bytes.reply) B back, two processes pinned to two cores)")
        }
    }
    // Where an isolated event's time goes: CPU in den's process and in the worker; the rest is waiting.
    func mean(_ samples: Samples) -> Double { samples.values.reduce(0, +) / Double(max(samples.count, 1)) }
    details.append("  CPU per event, both screens (median / mean): den's process in-process \(micro(r.hostCPUInProcess.median)) / \(micro(mean(r.hostCPUInProcess))), isolated \(micro(r.hostCPUIsolated.median)) / \(micro(mean(r.hostCPUIsolated))); the worker (mean) \(micro(r.workerCPUPerEvent))")
    details.append("  first screen, \(r.firstScreenIsolated.count) fresh hosts each: in-process \(milliseconds(r.firstScreenInProcess.median, digits: 1)) (p90 \(milliseconds(r.firstScreenInProcess.p90, digits: 1))), isolated \(milliseconds(r.firstScreenIsolated.median, digits: 1)) (p90 \(milliseconds(r.firstScreenIsolated.p90, digits: 1)))")
    details.append("  crash to restored screen, \(r.crashToRestored.count) crashes: median \(milliseconds(r.crashToRestored.median, digits: 1)), p90 \(milliseconds(r.crashToRestored.p90, digits: 1)), p99 \(milliseconds(crashP99, digits: 1))")
    details.append("  worker memory: resident \(fixed(r.workerRSS / 1048576, 1)) MiB (shared libraries included), private \(fixed(r.workerPrivate / 1048576, 1)) MiB, the module image's resident share \(fixed(r.moduleImage / 1048576, 2)) MiB")
    // den serve: the same pages from a server that isolates the module and one that does not.
    let web = IsolationWebBench(denPath: URL(fileURLWithPath: denBin).appendingPathComponent("den").path,
                                wrkPath: option("--wrk") ?? "/usr/bin/wrk",
                                plugin: URL(fileURLWithPath: denBin).appendingPathComponent("libDenFixtureFaults.so"),
                                seconds: intOption("--isolation-web-seconds", 3), rounds: intOption("--isolation-web-rounds", 5),
                                connections: intOption("--connections", 16), workDirectory: work.appendingPathComponent("isolation-web"))
    do {
        let w = try web.run()
        problems += w.failures.prefix(5).map { "isolation (den serve): \($0)" }
        if let isolated = w.isolated, let inProcess = w.inProcess, let share = w.ratio {
            rows.append(Row(figure: "den serve GET, isolated module", den: rate(isolated.requestsPerSecond),
                            baseline: "in-process " + rate(inProcess.requestsPerSecond), ratio: ratio(share),
                            goal: "≥ 0.7× in-process", verdict: share >= 0.7 ? "MET" : "MISSED"))
            details.append("  den serve: wrk, 2 threads, \(web.connections) connections, \(web.rounds) rounds of \(web.seconds) s per server, \(WebBench.sessions) sessions each going back and forth between /faults and /faults/big (every GET a step with module calls)")
            details.append("  ratio per round: " + w.ratios.map { fixed($0, 2) }.joined(separator: " ") + "; the median round, req/s and p99:")
            details.append("  isolated     \(rate(isolated.requestsPerSecond))  p99 \(fixed(isolated.p99Milliseconds, 2)) ms")
            details.append("  in-process   \(rate(inProcess.requestsPerSecond))  p99 \(fixed(inProcess.p99Milliseconds, 2)) ms")
        }
    } catch {
        problems.append("isolation (den serve): \(error)")
    }
}

// MARK: 13. Start-up with signed modules under require-signature, against the same unsigned
if wanted("signing") {
    let counts = (option("--signing-counts") ?? "1,100").split(separator: ",").compactMap { Int($0) }.filter { $0 >= 1 }
    let bench = SigningBench(denPath: URL(fileURLWithPath: denBin).appendingPathComponent("den").path,
                             aboutPlugin: URL(fileURLWithPath: denBin).appendingPathComponent("libAboutModule.so"),
                             headerFolder: URL(fileURLWithPath: option("--den-include") ?? "Sources/CDenABI/include"),
                             counts: counts, runs: intOption("--runs", 20), workDirectory: work.appendingPathComponent("signing"))
    let r = try bench.run()
    problems += r.failures.prefix(5).map { "signing: \($0)" }
    if r.failures.isEmpty {
        for count in counts.sorted() {
            guard let signed = r.signed[count], let unsigned = r.unsigned[count] else { continue }
            let share = signed.median / unsigned.median
            rows.append(Row(figure: "render about, \(count) signed", den: milliseconds(signed.median, digits: 1),
                            baseline: "unsigned " + milliseconds(unsigned.median, digits: 1), ratio: ratio(share),
                            goal: count >= 100 ? "≤ 1.1×" : "info", verdict: count >= 100 ? (share <= 1.1 ? "MET" : "MISSED") : "info"))
        }
        details.append("signing: den render about with N modules (About + N-1 C modules), signed under require-signature vs unsigned under allow, lazy, \(intOption("--runs", 20)) runs each after 3 warm-ups; median (p90):")
        for count in counts.sorted() {
            for (label, samples) in [("unsigned", r.unsigned[count]), ("signed", r.signed[count])] {
                guard let samples else { continue }
                details.append("  " + pad("\(label), \(count) module\(count == 1 ? "" : "s")", 24) + pad(milliseconds(samples.median, digits: 1), 10)
                    + "(" + milliseconds(samples.p90, digits: 1) + ")")
            }
        }
    }
}

// MARK: 15. The module catalog: resolving against 1,000 × 10 releases, installing from nginx
if wanted("catalog") {
    let resolve = CatalogResolveBench(runs: intOption("--catalog-runs", 30))
    let r = try resolve.run()
    problems += r.failures.prefix(5).map { "catalog: \($0)" }
    if r.failures.isEmpty {
        // Resolving is a small share of decoding: three decimals, or the backtracking row reads 0.00×.
        func share(_ value: Double) -> String { fixed(value, 3) + "×" }
        rows.append(Row(figure: "resolve, 1,000 × 10 catalog", den: milliseconds(r.deep.median, digits: 2),
                        baseline: "decode index " + milliseconds(r.decode.median, digits: 1), ratio: share(r.deep.median / r.decode.median),
                        goal: "(info)", verdict: "info"))
        rows.append(Row(figure: "  same, a backtracking request", den: milliseconds(r.backtracking.median, digits: 2),
                        baseline: "decode index " + milliseconds(r.decode.median, digits: 1), ratio: share(r.backtracking.median / r.decode.median),
                        goal: "(info)", verdict: "info"))
        details.append("catalog: \(r.releaseCount) releases of \(SyntheticCatalog.moduleCount) modules, index.json \(r.indexBytes / 1024) KiB; \(r.deep.count) runs of each, in rotation, after 3 warm-ups; median (p90):")
        details.append("  " + pad("CatalogIndex.decode of index.json (baseline)", 48) + "\(milliseconds(r.decode.median, digits: 2)) (\(milliseconds(r.decode.p90, digits: 2)))")
        details.append("  " + pad("resolve \(SyntheticCatalog.deepRequest.id)@\(SyntheticCatalog.deepRequest.range), a \(SyntheticCatalog.blockSize)-deep tree", 48)
            + "\(milliseconds(r.deep.median, digits: 2)) (\(milliseconds(r.deep.p90, digits: 2))), a plan of \(r.deepPlanSize) installs")
        details.append("  " + pad("resolve \(SyntheticCatalog.trapRequest.id)@\(SyntheticCatalog.trapRequest.range), backtracking", 48)
            + "\(milliseconds(r.backtracking.median, digits: 2)) (\(milliseconds(r.backtracking.p90, digits: 2))), a plan of \(r.backtrackingPlanSize) installs, \(SyntheticCatalog.trapRequest.id) \(r.backtrackingChoice) after 5 × 5 × 5 dead ends")
        details.append("  parsing the releases' versions and ranges into the resolver's snapshot, once: \(milliseconds(Double(r.snapshotNanoseconds), digits: 1))")
    }
    let install = CatalogInstallBench(denPath: URL(fileURLWithPath: denBin).appendingPathComponent("den").path,
                                      module: URL(fileURLWithPath: option("--catalog-module") ?? URL(fileURLWithPath: denBin).appendingPathComponent("libMainModule.so").path),
                                      rounds: intOption("--catalog-rounds", 10), workDirectory: work.appendingPathComponent("catalog"))
    let i = try install.run()
    problems += i.failures.prefix(5).map { "catalog install: \($0)" }
    if i.failures.isEmpty {
        rows.append(Row(figure: "install <id> from nginx", den: milliseconds(i.catalog.median, digits: 1),
                        baseline: "install <file> " + milliseconds(i.file.median, digits: 1), ratio: ratio(i.catalog.median / i.file.median),
                        goal: "(info)", verdict: "info"))
        details.append("catalog install: \(i.module) (\(i.fileBytes / 1024) KiB, signed), den modules install --yes under require-signature, \(i.catalog.count) rounds of each, alternating, after one of each; median (p90):")
        details.append("  " + pad("install <file> (baseline)", 48) + "\(milliseconds(i.file.median, digits: 1)) (\(milliseconds(i.file.p90, digits: 1)))")
        details.append("  " + pad("install <id>, the catalog on nginx", 48) + "\(milliseconds(i.catalog.median, digits: 1)) (\(milliseconds(i.catalog.p90, digits: 1)))")
    }
}

// MARK: Report
let widths = [32, 14, 24, 8, 30]
print(pad("figure", widths[0]) + pad("Den", widths[1]) + pad("baseline", widths[2]) + pad("ratio", widths[3]) + pad("goal", widths[4]) + "result")
for row in rows {
    print(pad(row.figure, widths[0]) + pad(row.den, widths[1]) + pad(row.baseline, widths[2]) + pad(row.ratio, widths[3])
        + pad(row.goal, widths[4]) + row.verdict)
}
print("")
details.forEach { print($0) }
print("1-minute load average at start / end: \(loadBefore) / \(loadAverage()) (the benchmark itself adds about 1; other work on the 2 cores makes the figures noisy)")
try? FileManager.default.removeItem(at: work)
if !problems.isEmpty {
    print("")
    problems.forEach { print("PROBLEM: \($0)") }
    exit(1)
}
