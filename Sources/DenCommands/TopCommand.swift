import ArgumentParser
import DenCommandLine
import DenMetrics
import DenLibraryClients
import DenLibraryContracts
import Foundation

/// `den top`: a running den's modules, live, read from its metrics address (`den serve
/// --metrics`). Per module: calls per second, p50 and p99 of the calls since the last refresh,
/// errors, restarts and worker memory; sortable with a key; plain text when piped.
struct TopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top",
        abstract: "Watch a running den's modules: calls/s, p50 and p99, errors, restarts and memory, read from den serve --metrics.",
        discussion: """
        Keys: c calls/s, p p99, e errors, m memory, n name (sort); q quits. Piped, it prints plain \
        tables (one unless --count says more). docs/OBSERVABILITY.md.
        """)

    @Argument(help: ArgumentHelp("The metrics address den serve was given (default: DEN_METRICS, else 127.0.0.1:9464).", valueName: "address"))
    var address: String?

    @Option(help: ArgumentHelp("Sort by calls, p99, errors, memory or name (default calls).", valueName: "column"))
    var sort = TopTable.Sort.calls

    @Option(help: ArgumentHelp("Seconds between refreshes (default 1).", valueName: "seconds"))
    var interval = 1.0

    @Option(help: ArgumentHelp("Stop after this many refreshes (default: until q on a terminal, 1 when piped).", valueName: "count"))
    var count: Int?

    func validate() throws {
        guard interval >= 0.1, interval <= 3600 else { throw ValidationError("--interval \(interval) must be 0.1 to 3600 seconds") }
        if let count, count < 1 { throw ValidationError("--count \(count) must be 1 or more") }
        if case .failure(let problem) = MetricsAddress.parse(resolvedAddress) { throw ValidationError("\(problem)") }
    }

    var resolvedAddress: String {
        address ?? ProcessInfo.processInfo.environment["DEN_METRICS"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1:9464"
    }

    func run() throws {
        guard case .success(let parsed) = MetricsAddress.parse(resolvedAddress), let url = URL(string: "http://\(parsed)/metrics") else {
            throw ExitCode(ExitStatus.usage)
        }
        let interactive = isatty(STDOUT_FILENO) == 1
        let keys = interactive ? TopKeys() : nil
        defer { keys?.restore() }
        var order = sort
        var before = try Self.scrape(url)
        var started = Date()
        var shown = 0
        let limit = count ?? (interactive ? Int.max : 1)
        while shown < limit {
            // Waits the interval, taking keys meanwhile: a sort key redraws at once.
            let until = Date().addingTimeInterval(interval)
            var quit = false
            while Date() < until, !quit {
                guard let key = keys.map({ $0.read(upTo: until.timeIntervalSinceNow) }) ?? Self.sleep(until) else { continue }
                if key == "q" || key == "\u{03}" { quit = true }
                // A sort key redraws now, with the calls since the last refresh.
                if let chosen = TopTable.Sort.allCases.first(where: { $0.key == key }) {
                    order = chosen
                    break
                }
            }
            if quit { break }
            let after = try Self.scrape(url)
            let now = Date()
            var table = TopTable(before: before, after: after, interval: .milliseconds(Int(now.timeIntervalSince(started) * 1000)))
            table.sort(by: order)
            let text = Self.header(parsed, table: table, order: order, samples: after, interactive: interactive) + table.lines()
            if interactive {
                print("\u{1B}[H\u{1B}[2J" + text.joined(separator: "\r\n"), terminator: "\r\n")
            } else {
                print(text.joined(separator: "\n"))
                if shown + 1 < limit { print("") }
            }
            fflush(nil)
            before = after
            started = now
            shown += 1
        }
    }

    static func header(_ address: MetricsAddress, table: TopTable, order: TopTable.Sort, samples: [MetricSample], interactive: Bool) -> [String] {
        var lines = ["den top: \(address), \(table.rows.count) module(s), sorted by \(order.rawValue)" + (interactive ? " (c p e m n; q quits)" : "")]
        // A module blamed earlier keeps its series at 0: the one above 0 is today's.
        if let busiest = samples.filter({ $0.name == "den_module_time_share_ratio" && $0.value > 0 }).max(by: { $0.value < $1.value }),
           let module = busiest.labels["module"] {
            lines.append("\(module) took \(Int((busiest.value * 100).rounded()))% of den's module time over the last minute")
        }
        return lines.map { String($0.prefix(80)) }
    }

    static func sleep(_ until: Date) -> Character? {
        let left = until.timeIntervalSinceNow
        if left > 0 { Thread.sleep(forTimeInterval: left) }
        return nil
    }

    /// One scrape; a den that does not answer ends `den top` with what to check.
    static func scrape(_ url: URL) throws -> [MetricSample] {
        let result = MetricsFetch.get(url, timeout: 5)
        switch result {
        case .success(let text): return MetricsText.parse(text)
        case .failure(let message):
            FileHandle.standardError.write(Data("Error: den top could not read \(url.absoluteString): \(message). Is den serve running with --metrics \(url.host ?? ""):\(url.port ?? 0)?\n".utf8))
            throw ExitCode(ExitStatus.failure)
        }
    }
}

extension TopTable.Sort: ExpressibleByArgument {}

/// A GET of the metrics text through den's own HTTP transport (`libDenHTTPTransport.so`, loaded
/// on first use as the `http` service does), so den-commands links no FoundationNetworking.
enum MetricsFetch {
    enum Outcome { case success(String), failure(String) }

    static func get(_ url: URL, timeout: TimeInterval) -> Outcome {
        let request = TransportRequest(url: url.absoluteString, headers: [:], timeoutMilliseconds: Int(timeout * 1000),
                                       maxBytes: 64 << 20, followsRedirects: false)
        do {
            switch try HTTPTransport.shared.get(request) {
            case .fetched(let status, _, let body):
                guard status == 200 else { return .failure("it answered \(status), not the metrics") }
                return .success(String(decoding: body, as: UTF8.self))
            case .failed(.timedOut):
                return .failure("no answer within \(Int(timeout)) s")
            case .failed(.tooLarge):
                return .failure("its answer was over 64 MB")
            case .failed(.transport(_, let description)):
                return .failure(description)
            }
        } catch {
            return .failure(error.message)
        }
    }
}

/// The terminal in raw mode while `den top` runs: one key at a time, no echo, Ctrl-C read as a
/// key (byte 3) so that the terminal is always restored.
final class TopKeys {
    private var saved = termios()
    private let active: Bool

    init() {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { active = false; return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        active = tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0
        guard active else { return }
        print("\u{1B}[?25l", terminator: "") // hide the cursor
        // Closing the terminal (SIGHUP) or `kill` (SIGTERM) leaves it as it was found too.
        let saved = saved
        for signal in [SIGTERM, SIGHUP] {
            Foundation.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler {
                var saved = saved
                _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved)
                print("\u{1B}[?25h", terminator: "")
                fflush(nil)
                exit(128 + signal)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Kept for as long as `den top` runs: a released source stops watching.
    private var signalSources: [any DispatchSourceSignal] = []

    /// A key pressed within `seconds`, or nil.
    func read(upTo seconds: TimeInterval) -> Character? {
        guard active else { return TopCommand.sleep(Date().addingTimeInterval(seconds)) }
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(max(0, seconds * 1000))) > 0 else { return nil }
        var byte: UInt8 = 0
        guard Foundation.read(STDIN_FILENO, &byte, 1) == 1 else { return "q" } // end of input
        return Character(UnicodeScalar(byte))
    }

    func restore() {
        guard active else { return }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        print("\u{1B}[?25h", terminator: "")
        fflush(nil)
    }
}
