import ArgumentParser

/// Finds a bare word that ArgumentParser would take as the route of the default `run` command,
/// and says which command was probably meant.
enum UnknownCommand {
    /// The error text for `den <word>` when `<word>` is not a command; nil when the arguments are fine
    /// (or wrong in a way ArgumentParser reports itself).
    static func check(_ arguments: [String]) -> String? {
        // A command word first is always fine; skipping the trial parse saves ArgumentParser's
        // reflection over every command (about a fifth of `den render about`'s start).
        guard let first = arguments.first else { return nil }
        if first == "help" || Den.configuration.subcommands.contains(where: { $0.configuration.commandName == first }) { return nil }
        guard let parsed = try? Den.parseAsRoot(arguments), let run = parsed as? RunCommand, let word = run.route,
              !arguments.contains("run") else { return nil }
        let commands = Den.configuration.subcommands.map { $0.configuration.commandName ?? "" }.filter { !$0.isEmpty }
        if commands.contains(word) {
            // `den --data-dir x plugins`: a real command after options, which belong after it.
            return "'\(word)' is a den command, but options came before it: put them after it, e.g. `den \(word) --data-dir DIR`. More: den \(word) --help"
        }
        guard !word.trimmingCharacters(in: .whitespaces).isEmpty else {
            return "an empty word is not a den command. Commands: \(commands.joined(separator: ", ")). More: den --help"
        }
        let hint = suggestion(for: word, among: commands).map { " Did you mean `den \($0)`?" } ?? ""
        return """
            '\(word)' is not a den command.\(hint)
            Commands: \(commands.joined(separator: ", ")). To open a screen: den run \(word). More: den --help
            """
    }

    /// The closest command: a known alias, a prefix, or at most two edits away.
    static func suggestion(for word: String, among commands: [String]) -> String? {
        let lowered = word.lowercased()
        if ["version", "-v", "-version"].contains(lowered) { return "--version" }
        if let prefix = commands.first(where: { $0.hasPrefix(lowered) || lowered.hasPrefix($0) }), lowered.count >= 2 { return prefix }
        return Suggestion.closest(to: lowered, in: commands)
    }
}
