import DenAccounts
@testable import DenHost
@testable import DenSQLiteEngine
import DenKit
import DenTestSupport
import Foundation
import Testing

@Suite("The host's login rules as settings (den.auth): declared, checked and applied like a module's")
struct AuthSettingsSpec {
    let namespace = AuthSettingDefinitions.namespace

    @Test("stored values replace the defaults: attempts, lockout and token lifetime")
    func storedValuesApply() throws {
        let engine = InMemoryStorageEngine()
        try engine.set(namespace: namespace, key: "config.max_failed_attempts", value: "3")
        try engine.set(namespace: namespace, key: "config.lockout_minutes", value: "60")
        try engine.set(namespace: namespace, key: "config.reset_token_minutes", value: "5")

        let (settings, problems) = AuthSettingDefinitions.apply(to: AuthSettings(), engine: engine)

        #expect(problems.isEmpty)
        #expect(settings.maxFailedAttempts == 3)
        #expect(settings.lockoutDuration == 3600)
        #expect(settings.resetTokenLifetime == 300)
    }

    @Test("a stored value that breaks its rule is reported, named, and not used")
    func refusedValueIsReported() throws {
        let engine = InMemoryStorageEngine()
        try engine.set(namespace: namespace, key: "config.max_failed_attempts", value: "0")
        try engine.set(namespace: namespace, key: "config.lockout_minutes", value: "ten")

        let (settings, problems) = AuthSettingDefinitions.apply(to: AuthSettings(), engine: engine)

        #expect(settings.maxFailedAttempts == 5)
        #expect(settings.lockoutDuration == 15 * 60)
        #expect(problems.count == 2)
        #expect(problems.allSatisfy { $0.hasPrefix("den.auth: ") })
        #expect(problems.contains { $0.contains("max_failed_attempts") && $0.contains("1 to 100") })
    }

    @Test("the declarations pass the same checks as a module's declaration")
    func declarationsAreValid() {
        #expect(SettingsDeclaration(settings: AuthSettingDefinitions.all).problem == nil)
        #expect(AuthSettingDefinitions.all.map(\.defaultValue) == ["5", "15", "30"])
    }

    @Test("a runtime over a real data folder locks after the stored number of attempts")
    func runtimeUsesStoredRules() throws {
        let temp = try TemporaryDirectory()
        var configuration = HostConfiguration(cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data"))
        configuration.auth = AuthTestSupport.settings()
        // As `den config set den.auth max_failed_attempts 2` leaves it.
        try SQLiteStorageEngine(directory: temp.path("data")).set(namespace: namespace, key: "config.max_failed_attempts", value: "2")

        let runtime = DenRuntime(configuration: configuration)
        _ = try runtime.accounts.register(username: "alice", password: "correct horse")
        #expect(try runtime.accounts.logIn(username: "alice", password: "wrong one!").outcome == .refused)
        #expect(try runtime.accounts.logIn(username: "alice", password: "wrong one!").outcome == .locked)
    }
}
