import ArgumentParser
import DenHost
import DenKit
import DenSupport
import Foundation

/// Module settings live in the module's own storage namespace under `config.<name>` (README,
/// "Module settings"). Each module declares its settings when it loads (`settings.declare`,
/// docs/ABI.md), so this command loads the plugins to learn them: it lists them with their
/// defaults and current values and refuses unknown modules, unknown names and invalid values,
/// always naming what exists, so a typo never lands in storage unnoticed.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show or change a module's settings (e.g. den config set main rates_url https://…).",
        subcommands: [Show.self, Set.self, Unset.self],
        defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "List a module's settings: current value, default, what is allowed.")
        @OptionGroup var host: HostOptions
        @Argument(help: "The module id, e.g. main; every module with settings when left out.") var module: String?
        @Argument(help: "One setting; all when left out.") var name: String?

        func run() throws {
            let settings = try ModuleSettingsAccess(host: host)
            guard let module else {
                print(settings.overview())
                return
            }
            print(try settings.describe(module: module, only: name))
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Change one setting (checked first).")
        @OptionGroup var host: HostOptions
        @Argument(help: "The module id, e.g. main.") var module: String
        @Argument(help: "The setting, e.g. rates_url.") var name: String
        @Argument(help: "The new value (empty '' where the setting allows it).") var value: String

        func run() throws {
            let settings = try ModuleSettingsAccess(host: host)
            let definition = try settings.definition(module: module, name: name)
            let value = SettingDefinition.normalize(value)
            if let problem = definition.problem(with: value) { throw ConfigError(ModuleText.singleLine(problem)) }
            try settings.storage(module).set(ModuleSettings.key(name), value)
            print(ModuleText.singleLine("\(module): \(name) = \(value.isEmpty ? "(empty: \(definition.emptyMeans ?? ""))" : value)"))
        }
    }

    struct Unset: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unset", abstract: "Go back to a setting's default.")
        @OptionGroup var host: HostOptions
        @Argument(help: "The module id, e.g. main.") var module: String
        @Argument(help: "The setting, e.g. rates_url.") var name: String

        func run() throws {
            let settings = try ModuleSettingsAccess(host: host)
            _ = try settings.declared(module)
            let storage = settings.storage(module)
            // A stored name the module no longer declares can still be removed (that is the fix
            // `show` suggests for it); any other unknown name is an error listing the real ones.
            let stored = try storage.list(prefix: ModuleSettings.key("")).map { String($0.key.dropFirst(ModuleSettings.key("").count)) }
            let definition = stored.contains(name)
                ? try? settings.definition(module: module, name: name) : try settings.definition(module: module, name: name)
            let removed = try storage.delete(ModuleSettings.key(name))
            let back = definition.map { " (the default applies: \($0.defaultValue.isEmpty ? "empty" : $0.defaultValue))" } ?? ""
            print(ModuleText.singleLine(removed ? "\(module): \(name) removed\(back)" : "\(module): \(name) was not set\(back)"))
        }
    }
}

/// A refusal printed as `Error: …` with exit status 1.
struct ConfigError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
