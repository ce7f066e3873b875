import Crypto
import CryptoExtras
import DenAccounts
import DenHost
import DenSQLiteEngine
import Foundation

/// What a login costs (docs/PERFORMANCE.md, figure 5): `AccountBook.logIn` over a real SQLite file
/// with the host's standard scrypt parameters (one verify, a record read and write), beside a bare
/// `KDF.Scrypt` call with the same parameters. Also a wrong password and an unknown user, which
/// must cost the same as a good login so timing tells an attacker nothing.
struct LoginBench {
    var logins: Int
    var workDirectory: URL
    var parameters = PasswordHashParameters.standard

    struct Result {
        var bare = Samples()
        var register = Samples()
        var good = Samples()
        var wrong = Samples()
        var unknown = Samples()
        var failures: [String] = []
    }

    func run() throws -> Result {
        var settings = AuthSettings()
        settings.hashParameters = parameters
        // Never lock the account mid-run: wrong passwords are part of the rotation.
        settings.maxFailedAttempts = 100
        let book = AccountBook(engine: SQLiteStorageEngine(directory: workDirectory), settings: settings)
        var result = Result()
        let password = "correct horse battery"
        let salt = Data((0..<16).map { UInt8($0) })
        for round in 0..<(logins + 2) {
            let name = "runner\(round)"
            var start = nowNanoseconds()
            if try book.register(username: name, password: password).outcome != .ok { result.failures.append("register \(name)") }
            let registered = nowNanoseconds() - start
            // Rotate the kinds so drift weighs on all alike; the first 2 rounds warm up.
            var timings: [Int: UInt64] = [:]
            for kind in [round % 4, (round + 1) % 4, (round + 2) % 4, (round + 3) % 4] {
                start = nowNanoseconds()
                switch kind {
                case 0:
                    let key = try KDF.Scrypt.deriveKey(from: Data(password.utf8), salt: salt, outputByteCount: 32,
                                                       rounds: parameters.rounds, blockSize: parameters.blockSize,
                                                       parallelism: parameters.parallelism,
                                                       maxMemory: 128 * parameters.blockSize * (parameters.rounds + 3) + (1 << 20))
                    if key.bitCount != 256 { result.failures.append("scrypt gave \(key.bitCount) bits") }
                case 1:
                    if try book.logIn(username: name, password: password).outcome != .ok { result.failures.append("good login refused") }
                case 2:
                    if try book.logIn(username: name, password: "wrong horse battery").outcome != .refused { result.failures.append("wrong password not refused") }
                default:
                    if try book.logIn(username: "nobody\(round)", password: password).outcome != .refused { result.failures.append("unknown user not refused") }
                }
                timings[kind] = nowNanoseconds() - start
            }
            guard round >= 2 else { continue }
            result.register.add(registered)
            result.bare.add(timings[0]!)
            result.good.add(timings[1]!)
            result.wrong.add(timings[2]!)
            result.unknown.add(timings[3]!)
        }
        return result
    }
}
