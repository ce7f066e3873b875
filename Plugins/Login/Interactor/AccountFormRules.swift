import DenKit

/// The checks made before a form goes to the `auth` service: the service's own rules
/// (`AuthRules`) plus what only a form can get wrong (a repeated password that differs, an empty
/// field). Every problem is reported at once, each with what to type instead; a message never
/// quotes a password or a token.
enum AccountFormRules {
    /// The longest reset token the service takes (`den users reset-token` prints 32 hex digits).
    static let maximumTokenLength = 256

    static func problems(_ credentials: Credentials) -> [FieldProblem] {
        var problems: [FieldProblem] = []
        if credentials.username.isEmpty {
            problems.append(FieldProblem(field: .username, message: "Type your username."))
        } else if AuthRules.usernameProblem(credentials.username) != nil {
            problems.append(FieldProblem(field: .username, message:
                "No account has this username: usernames are \(AuthRules.usernameRule). Check what you typed."))
        }
        if credentials.password.isEmpty {
            problems.append(FieldProblem(field: .password, message: "Type your password."))
        } else if credentials.password.length > AuthRules.passwordLength.upperBound {
            problems.append(FieldProblem(field: .password, message:
                "No password is longer than \(AuthRules.passwordLength.upperBound) characters. Check what you typed."))
        }
        return problems
    }

    static func problems(_ account: NewAccount) -> [FieldProblem] {
        var problems: [FieldProblem] = []
        if account.username.isEmpty {
            problems.append(FieldProblem(field: .username, message: "Choose a username: \(AuthRules.usernameRule)."))
        } else if let problem = AuthRules.usernameProblem(account.username) {
            problems.append(FieldProblem(field: .username, message: sentence(problem)))
        }
        problems += newPassword(account.password, repeated: account.repeated)
        return problems
    }

    static func problems(_ reset: PasswordReset) -> [FieldProblem] {
        var problems: [FieldProblem] = []
        if reset.token.isEmpty {
            problems.append(FieldProblem(field: .token, message:
                "Paste the reset token that `den users reset-token <username>` printed."))
        } else if reset.token.length > maximumTokenLength {
            problems.append(FieldProblem(field: .token, message:
                "This is much longer than a reset token (32 letters and digits). Paste only the token."))
        }
        problems += newPassword(reset.password, repeated: reset.repeated)
        return problems
    }

    static func problems(_ change: PasswordChange) -> [FieldProblem] {
        var problems: [FieldProblem] = []
        if change.current.isEmpty {
            problems.append(FieldProblem(field: .currentPassword, message: "Type your current password."))
        } else if change.current.length > AuthRules.passwordLength.upperBound {
            problems.append(FieldProblem(field: .currentPassword, message:
                "No password is longer than \(AuthRules.passwordLength.upperBound) characters. Check what you typed."))
        }
        problems += newPassword(change.password, repeated: change.repeated)
        if !change.current.isEmpty, change.password == change.current, problems.isEmpty {
            problems.append(FieldProblem(field: .password, message:
                "The new password is the same as the current one. Choose a different one."))
        }
        return problems
    }

    /// A new password follows `AuthRules`, and the second copy matches the first.
    private static func newPassword(_ password: Secret, repeated: Secret) -> [FieldProblem] {
        var problems: [FieldProblem] = []
        if password.isEmpty {
            problems.append(FieldProblem(field: .password, message: "Choose a password: \(AuthRules.passwordRule)."))
        } else if let problem = AuthRules.passwordProblem(password.revealed) {
            problems.append(FieldProblem(field: .password, message: sentence(problem)))
        }
        if repeated.isEmpty {
            if !password.isEmpty {
                problems.append(FieldProblem(field: .repeatPassword, message: "Type the new password again, to be sure of it."))
            }
        } else if repeated != password {
            problems.append(FieldProblem(field: .repeatPassword, message:
                "The two passwords differ. Type the same new password in both fields."))
        }
        return problems
    }

    /// "the password is 5 characters long; use …" → "The password is 5 characters long; use ….":
    /// `AuthRules` words its problems as clauses.
    static func sentence(_ clause: String) -> String {
        guard let first = clause.first else { return clause }
        let text = first.uppercased() + clause.dropFirst()
        return text.hasSuffix(".") ? text : text + "."
    }
}
