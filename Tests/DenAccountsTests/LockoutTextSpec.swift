@testable import DenAccounts
import Foundation
import Testing

@Suite struct LockoutTextSpec {
    @Test("a retry time is rounded up to the second: never early")
    func retryTimeRoundsUp() {
        let late = Date(timeIntervalSince1970: 1_795_414_066.6)
        #expect(LockoutText.iso(late) == ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 1_795_414_067)))
    }
}
