@testable import DenAccounts
import DenLibraryContracts
import DenTestSupport
import DenKit
import Foundation
import Testing

@Suite("New passwords: no common or breached password, not the username")
struct PasswordPolicySpec {
    @Test("register refuses passwords from the shipped list, in any case, and says why")
    func commonPasswordsAtRegister() throws {
        let book = AuthTestSupport.book()
        for weak in ["password", "12345678", "Password1", "QWERTYUIOP", "iloveyou"] {
            let answer = try book.register(username: "alice", password: weak)
            #expect(answer.outcome == .refused, "\(weak)")
            #expect(answer.message?.contains("common and breached passwords") == true)
            // ("password" is a word of the message itself.)
            if weak != "password" { #expect(answer.message?.lowercased().contains(weak.lowercased()) == false, "the message never quotes the password") }
        }
        #expect(try book.users().isEmpty)
        #expect(try book.register(username: "alice", password: "correct horse").outcome == .ok)
    }

    @Test("a password equal to the username is refused, whatever its case")
    func usernameAsPassword() throws {
        let book = AuthTestSupport.book()
        let answer = try book.register(username: "marathoner", password: "Marathoner")
        #expect(answer.outcome == .refused)
        #expect(answer.message?.contains("same as the username") == true)
    }

    @Test("change and reset refuse the same passwords; a refused reset keeps its token")
    func changeAndReset() throws {
        let book = AuthTestSupport.book()
        _ = try book.register(username: "alice", password: "correct horse")
        let change = try book.changePassword(username: "alice", current: "correct horse", new: "password1")
        #expect(change.outcome == .refused)
        #expect(change.message?.contains("common and breached") == true)
        #expect(try book.logIn(username: "alice", password: "correct horse").outcome == .ok)

        let (token, _) = try book.makeResetToken(for: "alice")
        let weak = try book.resetPassword(token: token, new: "sunshine")
        #expect(weak.outcome == .refused)
        #expect(weak.message?.contains("common and breached") == true)
        #expect(try book.resetPassword(token: token, new: "battery staple").outcome == .ok, "the token still works")
    }

    @Test("the shipped list holds thousands of passwords, all 8 characters or more")
    func shippedList() {
        #expect(PasswordPolicy.common.count > 8000)
        #expect(PasswordPolicy.common.allSatisfy { $0.unicodeScalars.count >= AuthRules.passwordLength.lowerBound })
        #expect(PasswordPolicy.common.contains("password"))
        #expect(!PasswordPolicy.common.contains("correct horse"))
    }
}
