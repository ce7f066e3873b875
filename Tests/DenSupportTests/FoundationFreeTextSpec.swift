import DenSupport
import Foundation
import Testing

/// The host imports FoundationEssentials only; what it wrote with Foundation before must read the
/// same now. Each helper is checked against Foundation's own answer.
@Suite("Text the host formats without Foundation")
struct FoundationFreeTextSpec {
    @Test("fixed decimals match String(format:) for values away from a rounding tie")
    func fixedDecimals() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, 1, -1, 0.04, 0.05001, 9.96, 99.95001, 1234.5678, -0.04, -2.5001, 1e6 + 0.25]
        for _ in 0..<2000 { values.append(Double.random(in: -100_000...100_000, using: &generator)) }
        for value in values {
            for places in 0...3 {
                let scaled = abs(value) * pow(10, Double(places))
                // A value within a hair of .5 rounds by its binary expansion in printf; skip those.
                guard abs(scaled - scaled.rounded(.down) - 0.5) > 1e-6 else { continue }
                var printed = String(format: "%.\(places)f", value)
                // printf writes "-0.0" for a negative value that rounds to zero; den writes "0.0".
                if printed.hasPrefix("-"), printed.allSatisfy({ "-0.".contains($0) }) { printed.removeFirst() }
                #expect(NumberText.fixed(value, places: places) == printed, "\(value) to \(places) places")
            }
        }
    }

    @Test("hex digits match %02x")
    func hex() {
        let bytes = (0...255).map(UInt8.init)
        #expect(NumberText.hex(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
        #expect(NumberText.hex([]).isEmpty)
    }

    @Test("UTC times match ISO8601DateFormatter and an HH:mm DateFormatter")
    func utcTimes() {
        let clock = DateFormatter()
        clock.locale = Locale(identifier: "en_US_POSIX")
        clock.timeZone = TimeZone(identifier: "UTC")
        clock.dateFormat = "HH:mm"
        var generator = SystemRandomNumberGenerator()
        // Whole seconds: ISO8601DateFormatter rounds a fraction to the nearest second, den cuts it off.
        let dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_795_414_066)]
            + (0..<500).map { _ in Date(timeIntervalSince1970: Double.random(in: 0...4_102_444_800, using: &generator).rounded(.down)) }
        for date in dates {
            #expect(UTCTime.iso8601(date) == ISO8601DateFormatter().string(from: date), "\(date.timeIntervalSince1970)")
            #expect(UTCTime.hoursAndMinutes(date) == clock.string(from: date), "\(date.timeIntervalSince1970)")
            #expect(UTCTime.hoursAndMinutes(date.addingTimeInterval(59.9)) == clock.string(from: date.addingTimeInterval(59.9)))
        }
        let late = Date(timeIntervalSince1970: 1_795_414_066.6)
        #expect(UTCTime.iso8601(late) == ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 1_795_414_066)))
    }

    @Test("a file-system error reads as the system's reason")
    func errorText() {
        #expect(throws: (any Error).self) { try FileManager.default.contentsOfDirectory(atPath: "/nonexistent-den-folder") }
        do {
            _ = try FileManager.default.contentsOfDirectory(atPath: "/nonexistent-den-folder")
        } catch {
            #expect(ErrorText.describe(error) == "No such file or directory")
        }
        #expect(ErrorText.describe(POSIXError(.EACCES)) == "Permission denied")
    }
}
