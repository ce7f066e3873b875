import ArgumentParser
import DenCommandLine
import DenHost
import DenSupport
import DenTrust
import Foundation

/// `den keys generate|list|trust|revoke|policy`: your signing keys and the keys you trust
/// (docs/SIGNING.md). They live in $DEN_CONFIG_DIR, else $XDG_CONFIG_HOME/den, else ~/.config/den.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make signing keys, and choose whose signed modules den runs.",
        discussion: """
        Keys are minisign's Ed25519 keys, so you can sign with Debian's `minisign` as well as with `den modules sign`. \
        Your keys are in <config>/keys (secret keys mode 0600), the keys you trust in <config>/trusted-keys; <config> is \
        $DEN_CONFIG_DIR, else $XDG_CONFIG_HOME/den, else ~/.config/den. An installed den also trusts the key its \
        install signed the bundled modules with (<prefix>/lib/den/trusted-keys). docs/SIGNING.md explains it all.
        """,
        subcommands: [KeysGenerateCommand.self, KeysListCommand.self, KeysTrustCommand.self, KeysRevokeCommand.self,
                      KeysPolicyCommand.self])

    static var keyRing: KeyRing {
        KeyRing(configDirectory: TrustStore.configDirectory(environment: ProcessInfo.processInfo.environment))
    }

    /// Runs a step, printing its failure on standard error with exit status 1.
    static func reporting(_ step: () throws(KeyRing.Failure) -> String) throws {
        do { print(try step()) } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(ExitStatus.failure)
        }
    }
}

struct KeysGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Make a new key pair (and trust it), to sign modules with.")

    @Argument(help: "The key's name (its files are <config>/keys/<name>.key and .pub).")
    var name = "default"

    @Option(name: .customLong("as"), help: ArgumentHelp("The publisher name den shows for modules signed with it (default: the key's name).", valueName: "publisher"))
    var publisher: String?

    @Flag(help: "Replace a key of the same name.")
    var force = false

    func run() throws {
        try KeysCommand.reporting { () throws(KeyRing.Failure) -> String in
            let ring = KeysCommand.keyRing
            let key = try ring.generate(name: name, publisher: publisher ?? name, replacing: force)
            return """
                Made key \(key.keyIDText) (\(publisher ?? name)):
                  secret key \(ring.secretKeyFile(name).path) (mode 0600; keep it private)
                  public key \(ring.publicKeyFile(name).path) (give it to the people who run your modules: den keys trust <file>)
                You trust it already. Sign a module with: den modules sign <file>\(name == "default" ? "" : " --key \(name)")
                """
        }
    }
}

struct KeysListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List your keys and the keys you trust or revoked.")

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let ring = KeysCommand.keyRing
        var lines: [String] = []
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: ring.keysDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".key") }.map { String($0.dropLast(4)) }.sorted()
        lines.append("Your keys (\(ring.keysDirectory.path)):\(names.isEmpty ? " none (den keys generate)" : "")")
        for name in names {
            let id = (try? ring.secretKey(name))?.publicKeyValue.keyIDText ?? "(unreadable)"
            lines.append("  \(id)  \(name)")
        }
        for file in TrustPolicySetting.trustFiles(environment: environment) {
            let store = TrustStore.load([file])
            guard FileManager.default.fileExists(atPath: file.path) || file == ring.trustFile else { continue }
            lines.append("Trust list \(file.path):\(store.entries.isEmpty ? " empty" : "")")
            for entry in store.entries {
                lines.append("  \(entry.keyID)  \(entry.revoked ? "revoked" : "trusted")  \(ModuleText.singleLine(entry.publisher))")
            }
            for problem in store.problems { lines.append("  PROBLEM \(ModuleText.singleLine(problem))") }
        }
        switch TrustPolicySetting.resolve(option: nil, environment: environment) {
        case .success(let (policy, source)): lines.append("Trust policy: \(policy.rawValue) (\(source))")
        case .failure(let problem): lines.append("Trust policy: PROBLEM \(problem)")
        }
        print(lines.joined(separator: "\n"))
    }
}

struct KeysTrustCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract: "Trust a publisher's public key: modules it signed may run under every policy.")

    @Argument(help: ArgumentHelp("A minisign public key file (.pub), or the key's base64 line.", valueName: "key"))
    var key: String

    @Option(name: .customLong("as"), help: ArgumentHelp("The publisher's name, as den shows it (default: the file's name).", valueName: "publisher"))
    var publisher: String?

    func run() throws {
        try KeysCommand.reporting { () throws(KeyRing.Failure) -> String in
            let text: String
            if FileManager.default.fileExists(atPath: key) {
                guard let data = FileManager.default.contents(atPath: key) else { throw KeyRing.Failure("cannot read \(key)") }
                text = String(decoding: data, as: UTF8.self)
            } else {
                text = key
            }
            let parsed: Minisign.PublicKey
            do { parsed = try Minisign.PublicKey(text: text) } catch {
                throw KeyRing.Failure("\(key) is not a minisign public key: \(error) (give the .pub file, or its base64 line)")
            }
            let name = publisher ?? (FileManager.default.fileExists(atPath: key) ? URL(fileURLWithPath: key).deletingPathExtension().lastPathComponent : parsed.keyIDText)
            try KeysCommand.keyRing.trust(parsed, as: name)
            return "Trusted key \(parsed.keyIDText) as \(name). Modules it signed run under every trust policy."
        }
    }
}

struct KeysRevokeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke a key: modules it signed are refused under every policy.")

    @Argument(help: ArgumentHelp("The key id (as den keys list shows it) or the publisher's name.", valueName: "key"))
    var key: String

    func run() throws {
        try KeysCommand.reporting { () throws(KeyRing.Failure) -> String in
            let entry = try KeysCommand.keyRing.revoke(key)
            return "Revoked key \(entry.keyID) (\(entry.publisher)). Every den started from now on refuses the modules it signed."
        }
    }
}

struct KeysPolicyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "Show the trust policy, or set it: require-signature, isolate-unsigned or allow.",
        discussion: "Written to <config>/trust-policy. --trust-policy and DEN_TRUST_POLICY win over it for one run.")

    @Argument(help: "The policy to set; without it, the policy in force is shown.")
    var policy: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        try KeysCommand.reporting { () throws(KeyRing.Failure) -> String in
            guard let policy else {
                switch TrustPolicySetting.resolve(option: nil, environment: environment) {
                case .success(let (policy, source)): return "\(policy.rawValue) (\(source))"
                case .failure(let problem): throw KeyRing.Failure(problem.description)
                }
            }
            guard let parsed = TrustPolicySetting.parse(policy) else {
                throw KeyRing.Failure("unknown trust policy '\(policy)'; use \(TrustPolicySetting.names)")
            }
            let file = TrustPolicySetting.file(configDirectory: TrustStore.configDirectory(environment: environment))
            do { try TrustStore.write(parsed.rawValue + "\n", to: file) } catch {
                throw KeyRing.Failure("cannot write \(file.path): \(error)")
            }
            return "Trust policy \(parsed.rawValue), from the next start on (\(file.path))."
        }
    }
}
