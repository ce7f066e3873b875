import DenAccounts
import DenLibraryContracts
import ArgumentParser
import DenCommandLine
import DenHost
import DenSQLiteEngine
import DenTerminal
import Foundation

/// `den users list | add | unlock | delete | reset-token`: the administrator's view of the
/// accounts behind the `auth` service, in the data folder's storage.sqlite (or the PostgreSQL
/// database of --database / DEN_DATABASE_URL). No plugin is loaded.
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "List, add, unlock and delete users, or make a password reset token.",
        discussion: """
        Usernames are 3 to 32 characters of a-z, 0-9, '.', '_' and '-' (A-Z is folded to lower \
        case); passwords are 8 to 1024 characters. A reset token is valid for \
        `den config show den.auth reset_token_minutes` (30 by default). `delete` also removes the user's data from \
        every module (storage keys under user/<username>/, docs/ABI.md). Exit status: 0 success; \
        1 the command failed (no such user, a taken name, storage trouble); 64 a usage error.
        """,
        subcommands: [List.self, Add.self, Unlock.self, Delete.self, ResetToken.self])

    /// The accounts of the data folder named by `location`.
    static func accounts(_ location: DataCommand.Location) throws -> (AccountBook, any ClosableStorageEngine) {
        let engine = try location.storage()
        // The login rules an administrator set (`den config set den.auth …`) apply here too.
        let book = AccountBook(engine: engine) {
            let (settings, problems) = AuthSettingDefinitions.apply(to: .default, engine: engine)
            for problem in problems { FileHandle.standardError.write(Data("Warning: \(problem)\n".utf8)) }
            return settings
        }
        return (book, engine)
    }

    /// Turns a `ServiceFailure` into a plain error line and exit status 1.
    static func run(_ body: () throws -> Void) throws {
        do { try body() } catch let failure as ServiceFailure {
            FileHandle.standardError.write(Data("Error: \(failure.message)\n".utf8))
            throw ExitCode(ExitStatus.failure)
        }
    }

    static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users, with lockouts and hash parameters.")
        @OptionGroup var location: DataCommand.Location

        func run() throws {
            try UsersCommand.run {
                let (accounts, engine) = try UsersCommand.accounts(location)
                defer { engine.close() }
                let users = try accounts.users()
                guard !users.isEmpty else {
                    print("No users yet. Add one with: den users add <username>")
                    return
                }
                for user in users {
                    var line = "\(user.username)  created \(UsersCommand.time(user.created))  \(user.parameters)"
                    if let until = user.lockedUntil { line += "  LOCKED until \(UsersCommand.time(until))" }
                    print(line)
                }
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a user; the password is read from standard input (hidden at a terminal), never from the command line.")
        @OptionGroup var location: DataCommand.Location
        @Argument(help: "The new user's name.") var username: String

        func run() throws {
            try UsersCommand.run {
                guard let password = PasswordPrompt.read("Password for \(username): ") else {
                    throw ServiceFailure.invalid("no password given; type it when asked, or pipe it: echo 'the password' | den users add \(username)")
                }
                let (accounts, engine) = try UsersCommand.accounts(location)
                defer { engine.close() }
                let answer = try accounts.register(username: username, password: password)
                guard answer.outcome == .ok, let name = answer.username else {
                    // A taken name, or a password the host refuses (common, or the username).
                    let taken = "'\(username)' is already a user; pick another name, or see them with den users list"
                    throw ServiceFailure.invalid(answer.message.map { $0.hasPrefix("That username") ? taken : $0 } ?? taken)
                }
                print("Added user \(name).")
            }
        }
    }

    struct Unlock: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lift a lockout after too many failed logins.")
        @OptionGroup var location: DataCommand.Location
        @Argument(help: "The user to unlock.") var username: String

        func run() throws {
            try UsersCommand.run {
                let (accounts, engine) = try UsersCommand.accounts(location)
                defer { engine.close() }
                let wasLocked = try accounts.unlock(username)
                print(wasLocked ? "Unlocked \(username.lowercased())." : "\(username.lowercased()) was not locked; its failed-login count is now 0.")
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a user and their data in every module (keys under user/<username>/).")
        @OptionGroup var location: DataCommand.Location
        @Argument(help: "The user to delete.") var username: String

        func run() throws {
            try UsersCommand.run {
                let (accounts, engine) = try UsersCommand.accounts(location)
                defer { engine.close() }
                let removed = try accounts.delete(username)
                let name = username.lowercased()
                print("Deleted user \(name).")
                if removed.isEmpty {
                    print("No module kept data for \(name) (no keys under \(UserDataConvention.prefix(for: name))).")
                }
                for (module, count) in removed.sorted(by: { $0.key < $1.key }) {
                    print("Removed \(count) key\(count == 1 ? "" : "s") under \(UserDataConvention.prefix(for: name)) from module \(module).")
                }
            }
        }
    }

    struct ResetToken: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-token",
            abstract: "Print a single-use password reset token (valid 30 minutes unless den.auth reset_token_minutes says otherwise) for the user to enter in the login screen.")
        @OptionGroup var location: DataCommand.Location
        @Argument(help: "The user who forgot their password.") var username: String

        func run() throws {
            try UsersCommand.run {
                let (accounts, engine) = try UsersCommand.accounts(location)
                defer { engine.close() }
                let (token, expires) = try accounts.makeResetToken(for: username)
                print(token)
                let minutes = Int((accounts.settings.resetTokenLifetime / 60).rounded())
                FileHandle.standardError.write(Data("Single use, valid for \(minutes) minute\(minutes == 1 ? "" : "s"), until \(UsersCommand.time(expires)); it replaces any earlier token for \(username.lowercased()).\n".utf8))
            }
        }
    }
}

/// Reads a password: hidden at a terminal (asked twice), or one line of piped input.
enum PasswordPrompt {
    static func read(_ prompt: String) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return Swift.readLine(strippingNewline: true) }
        guard let first = hidden(prompt), let second = hidden("Again: ") else { return nil }
        guard first == second else {
            FileHandle.standardError.write(Data("The two passwords differ.\n".utf8))
            return nil
        }
        return first
    }

    private static func hidden(_ prompt: String) -> String? {
        TerminalEcho.hidden {
            FileHandle.standardError.write(Data(prompt.utf8))
            return Swift.readLine(strippingNewline: true)
        }
    }
}
