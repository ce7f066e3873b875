import ArgumentParser

/// Finds a bare word that ArgumentParser would take as the route of the default `run` command,
/// and says which command was probably meant.
enum UnknownCommand {
    /// The error text for `den <word>` when `<word>` is not a command; nil when the arguments are fine
    /// (or wrong in a way ArgumentParser reports itself).
    static func check(_ arguments: [String]) -> String? {
        guard let parsed = try? Den.parseAsRoot(arguments), let run = parsed as? RunCommand, let word = run.route,
              !arguments.contains("run") else { return nil }
        let commands = Den.configuration.subcommands.map { $0.configuration.commandName ?? "" }.filter { !$0.isEmpty }
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
        let scored = commands.map { ($0, distance(lowered, $0)) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance (words here are a few letters long).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
