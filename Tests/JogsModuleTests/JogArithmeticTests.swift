import Testing
@testable import JogsModule

/// Every expectation here is worked out by hand in the comment beside it.
@Suite("Pace, speed and totals")
struct JogArithmeticTests {
    @Test("pace is time per kilometre and speed is kilometres per hour, rounded")
    func perJog() {
        // 5.25 km in 28:30 = 1710 s: 1710 / 5.25 = 325.71 s/km → 5:26; 5.25 / 0.475 h = 11.05 km/h → 11.1.
        let easy = jog(1, "2026-01-05", metres: 5250, seconds: 1710)
        #expect(easy.paceSecondsPerKm == 326)
        #expect(easy.speedTenthsKmh == 111)
        // 10 km in 50:00: 300 s/km → 5:00; 12.0 km/h.
        let steady = jog(2, "2026-01-06", metres: 10_000, seconds: 3000)
        #expect(steady.paceSecondsPerKm == 300)
        #expect(steady.speedTenthsKmh == 120)
        // 21.1 km in 1:45:30 = 6330 s: 6330 / 21.1 = 300 s/km; 21.1 / 1.7583 h = 12.0 km/h.
        let half = jog(3, "2026-01-07", metres: 21_100, seconds: 6330)
        #expect(half.paceSecondsPerKm == 300)
        #expect(half.speedTenthsKmh == 120)
    }

    @Test("halves round up: 601 s over 2 km is 300.5 s/km → 301")
    func rounding() {
        #expect(JogArithmetic.pace(seconds: 601, metres: 2000) == 301)
        #expect(JogArithmetic.pace(seconds: 599, metres: 2000) == 300) // 299.5 → 300
        // 1 km in 7:12 = 432 s: 8.333 km/h → 8.3; 1 km in 7:11 = 431 s: 8.353 → 8.4.
        #expect(JogArithmetic.speedTenths(metres: 1000, seconds: 432) == 83)
        #expect(JogArithmetic.speedTenths(metres: 1000, seconds: 431) == 84)
        #expect(JogArithmetic.pace(seconds: 100, metres: 0) == 0)
        #expect(JogArithmetic.speedTenths(metres: 100, seconds: 0) == 0)
    }

    @Test("totals average over total time and distance, not over the jogs' own paces")
    func totals() {
        // 5.25 km / 1710 s and 10 km / 3000 s: 15.25 km in 4710 s = 1:18:30.
        // Pace 4710 / 15.25 = 308.85 s/km → 5:09 (the mean of 5:26 and 5:00 would be 5:13).
        // Speed 15.25 / 1.30833 h = 11.66 km/h → 11.7.
        let totals = JogTotals([jog(1, "2026-01-05", metres: 5250, seconds: 1710),
                                jog(2, "2026-01-06", metres: 10_000, seconds: 3000)])
        #expect(totals.count == 2)
        #expect(totals.distanceMetres == 15_250)
        #expect(totals.durationSeconds == 4710)
        #expect(totals.paceSecondsPerKm == 309)
        #expect(totals.speedTenthsKmh == 117)
        #expect(JogFormatter.totals(totals) == "2 jogs · 15.25 km · 1:18:30 · average pace 5:09 min/km")

        let none = JogTotals([Jog]())
        #expect(none.count == 0 && none.paceSecondsPerKm == 0 && none.speedTenthsKmh == 0)
    }

    @Test("figures are written exactly: km to the metre, h:mm:ss, min/km, one decimal of km/h")
    func formatting() {
        #expect(JogFormatter.distance(5250) == "5.25 km")
        #expect(JogFormatter.distance(10_000) == "10 km")
        #expect(JogFormatter.distance(800) == "0.8 km")
        #expect(JogFormatter.distance(42_195) == "42.195 km")
        #expect(JogFormatter.distance(1) == "0.001 km")
        #expect(JogFormatter.duration(1710) == "28:30")
        #expect(JogFormatter.duration(59) == "0:59")
        #expect(JogFormatter.duration(3723) == "1:02:03")
        #expect(JogFormatter.duration(48 * 3600) == "48:00:00")
        #expect(JogFormatter.pace(326) == "5:26 min/km")
        #expect(JogFormatter.pace(3725) == "1:02:05 min/km")
        #expect(JogFormatter.speed(111) == "11.1 km/h")
        #expect(JogFormatter.speed(5) == "0.5 km/h")
        #expect(JogFormatter.jogs(1) == "1 jog")
    }

    @Test("what the fields show reads back to the same jog")
    func roundTrip() {
        for (metres, seconds) in [(5250, 1710), (1, 1), (1_000_000, 48 * 3600), (42_195, 3 * 3600 + 59)] {
            #expect(DistanceParser.parse(JogFormatter.kilometres(metres)) == .success(metres))
            #expect(DurationParser.parse(JogFormatter.duration(seconds)) == .success(seconds))
        }
    }
}
