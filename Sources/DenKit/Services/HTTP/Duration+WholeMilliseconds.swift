extension Duration {
    /// Whole milliseconds, rounded up (so 1 ns asks for 1 ms, not 0).
    var wholeMillisecondsRoundingUp: Int {
        let (seconds, attoseconds) = components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? Int.min : Int.max }
        var extra = attoseconds / perMillisecond
        if attoseconds % perMillisecond > 0 { extra += 1 }
        return Int(clamping: milliseconds.addingReportingOverflow(extra).partialValue)
    }
}
