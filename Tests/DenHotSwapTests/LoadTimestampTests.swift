@testable import DenHost
import Foundation
import Testing

@Suite("The load time shown by den plugins and About: ISO 8601 in UTC, to the second")
struct LoadTimestampTests {
    @Test("dates format as Foundation's .iso8601 does",
          arguments: [0.0, 1_795_403_840.9, 951_782_400 /* 2000-02-29 */, 4_102_444_799 /* 2099-12-31T23:59:59 */, 1_000_000_000.5])
    func matchesFoundation(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(PluginRecord.timestamp(date) == date.formatted(.iso8601))
    }

    @Test("a known instant")
    func knownInstant() {
        #expect(PluginRecord.timestamp(Date(timeIntervalSince1970: 1_795_403_843)) == "2026-11-23T03:17:23Z")
    }
}
