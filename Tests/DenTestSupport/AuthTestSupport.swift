import DenAccounts
import DenLibraryContracts
import Foundation
import Synchronization

/// A clock the test moves by hand, for lockout and token expiry.
package final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    package init() {}

    package var now: Date { current.withLock { $0 } }

    package func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

package enum AuthTestSupport {
    /// Cheap scrypt parameters and the test's clock: the real ones take about a second in debug.
    package static func settings(_ clock: TestClock = TestClock(), parameters: PasswordHashParameters = .testing) -> AuthSettings {
        var settings = AuthSettings()
        settings.hashParameters = parameters
        settings.now = { clock.now }
        return settings
    }

    package static func book(_ engine: any StorageEngine = InMemoryStorageEngine(), clock: TestClock = TestClock(),
                     parameters: PasswordHashParameters = .testing) -> AccountBook {
        AccountBook(engine: engine, settings: settings(clock, parameters: parameters))
    }
}
