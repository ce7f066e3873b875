@testable import DenAccounts
import DenLibraryContracts
import DenTestSupport
import DenKit
import Foundation
import Testing

@Suite("Password hashes: scrypt, salted, parameters kept beside the hash")
struct PasswordHashSpec {
    @Test("the standard parameters are N=2^15, r=8, p=1 (about 100 ms in release)")
    func standard() {
        #expect(PasswordHashParameters.standard == PasswordHashParameters(rounds: 32768, blockSize: 8, parallelism: 1))
        #expect(PasswordHashParameters.standard.problem == nil)
        #expect(AuthSettings.default.hashParameters == .standard)
        #expect(PasswordHashParameters.testing.isWeaker(than: .standard))
    }

    @Test("a stored hash carries its parameters, a 16-byte salt and a 32-byte key")
    func stored() throws {
        let engine = InMemoryStorageEngine()
        let book = AuthTestSupport.book(engine)
        #expect(try book.register(username: "alice", password: "correct horse").outcome == .ok)
        let record = try #require(try book.store.user("alice"))
        #expect(record.hash.kdf == "scrypt")
        #expect(record.hash.parameters == .testing)
        #expect(Data(base64Encoded: record.hash.salt)?.count == 16)
        #expect(Data(base64Encoded: record.hash.key)?.count == 32)
        #expect(try PasswordHasher.verify("correct horse", against: record.hash))
        #expect(try !PasswordHasher.verify("correct horsf", against: record.hash))
    }

    @Test("the same password gets a different salt and key for every user")
    func saltUniqueness() throws {
        let book = AuthTestSupport.book()
        for name in ["alice", "bob", "carol"] {
            _ = try book.register(username: name, password: "same password")
        }
        let hashes = try book.store.users().map(\.hash)
        #expect(Set(hashes.map(\.salt)).count == 3)
        #expect(Set(hashes.map(\.key)).count == 3)
    }

    @Test("a hash made with weaker parameters is redone at the next good login, not at a bad one")
    func rehash() throws {
        let engine = InMemoryStorageEngine()
        _ = try AuthTestSupport.book(engine).register(username: "alice", password: "correct horse")
        let stronger = PasswordHashParameters(rounds: 1 << 6, blockSize: 8, parallelism: 1)
        let raised = AuthTestSupport.book(engine, parameters: stronger)
        #expect(try raised.logIn(username: "alice", password: "wrong password").outcome == .refused)
        #expect(try raised.store.user("alice")?.hash.parameters == .testing)
        #expect(try raised.logIn(username: "alice", password: "correct horse").outcome == .ok)
        let record = try #require(try raised.store.user("alice"))
        #expect(record.hash.parameters == stronger)
        #expect(try raised.logIn(username: "alice", password: "correct horse").outcome == .ok)
    }

    @Test("comparison looks at every byte")
    func constantTime() {
        #expect(PasswordHasher.constantTimeEqual(Data([1, 2, 3]), Data([1, 2, 3])))
        #expect(!PasswordHasher.constantTimeEqual(Data([1, 2, 3]), Data([1, 2, 4])))
        #expect(!PasswordHasher.constantTimeEqual(Data([1, 2, 3]), Data([1, 2])))
    }

    @Test("parameters out of range are refused with the rule")
    func badParameters() {
        #expect(PasswordHashParameters(rounds: 1000, blockSize: 8, parallelism: 1).problem?.contains("power of two") == true)
        var settings = AuthSettings()
        settings.maxFailedAttempts = 0
        #expect(settings.problem?.contains("maxFailedAttempts") == true)
    }
}
