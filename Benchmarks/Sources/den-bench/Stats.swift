#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Monotonic nanoseconds (`CLOCK_MONOTONIC`): cheaper to read around one `dlopen` than building a
/// `ContinuousClock.Instant` pair, and the same clock.
@inline(__always)
func nowNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Samples of one measurement, in nanoseconds.
struct Samples {
    var values: [Double] = []

    mutating func add(_ nanoseconds: UInt64) { values.append(Double(nanoseconds)) }
    mutating func add(_ nanoseconds: Double) { values.append(nanoseconds) }

    var count: Int { values.count }
    var median: Double { percentile(50) }
    var p90: Double { percentile(90) }
    var minimum: Double { values.min() ?? .nan }

    /// Nearest-rank percentile.
    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

// MARK: - Formatting (no Foundation `String(format:)`, to keep the numbers' path plain)

func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    var whole = String(Int(scaled / scale))
    if value < 0, scaled > 0 { whole = "-" + whole }
    guard digits > 0 else { return whole }
    var fraction = String(Int(scaled.truncatingRemainder(dividingBy: scale)))
    while fraction.count < digits { fraction = "0" + fraction }
    return whole + "." + fraction
}

/// `0.123 ms` for nanoseconds.
func milliseconds(_ nanoseconds: Double, digits: Int = 3) -> String { fixed(nanoseconds / 1e6, digits) + " ms" }

/// `1.23 M/s` for a rate per second.
func rate(_ perSecond: Double) -> String {
    perSecond >= 1e6 ? fixed(perSecond / 1e6, 2) + " M/s" : fixed(perSecond / 1e3, 1) + " k/s"
}

func ratio(_ value: Double) -> String { fixed(value, 2) + "×" }

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

/// Consumes a value so the optimiser cannot drop the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
