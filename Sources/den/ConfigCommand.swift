import ArgumentParser
import DenHost
import DenKit
import Foundation

/// Module settings live in the module's own storage namespace under `config.<key>` (see README,
/// "Module settings"); this command edits them without loading any plugin.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show or change a module's settings (e.g. den config set main rates_url https://…).",
        subcommands: [Show.self, Set.self, Unset.self],
        defaultSubcommand: Show.self)

    struct Location: ParsableArguments {
        @Option(name: .customLong("data-dir"), help: ArgumentHelp(
            "Where modules' data is kept (default: $DEN_DATA_DIR or ~/.local/share/den).", valueName: "dir"))
        var dataDirectory: String?

        /// The module's storage as the module itself sees it, limits included.
        func storage(of module: String) -> ModuleStorage {
            ModuleStorage(service: StorageService(dataDirectory: dataDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? HostConfiguration.defaultDataDirectory()), caller: ServiceCaller(moduleID: module))
        }
    }

    static let prefix = "config."

    static func check(module: String, key: String?) throws {
        guard ModuleIdentity.isValidID(module) else {
            throw ValidationError("'\(module)' is not a module id (like main or about; see `den plugins`)")
        }
        if let key, key.isEmpty || key.contains(where: { $0.isWhitespace }) {
            throw ValidationError("setting names are single words like rates_url")
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print a module's settings.")
        @OptionGroup var location: Location
        @Argument(help: "The module id, e.g. main.") var module: String
        @Argument(help: "One setting; all when left out.") var key: String?

        func run() throws {
            try ConfigCommand.check(module: module, key: key)
            let entries = try location.storage(of: module).list(prefix: ConfigCommand.prefix + (key ?? ""))
                .filter { key == nil || $0.key == ConfigCommand.prefix + key! }
            if entries.isEmpty {
                print(key.map { "\(module) has no setting '\($0)'." } ?? "\(module) has no settings.")
                if key != nil { throw ExitCode(1) }
            }
            for entry in entries { print(ModuleText.singleLine("\(entry.key.dropFirst(ConfigCommand.prefix.count)) = \(entry.value)")) }
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Change one setting.")
        @OptionGroup var location: Location
        @Argument(help: "The module id, e.g. main.") var module: String
        @Argument(help: "The setting, e.g. rates_url.") var key: String
        @Argument(help: "The new value.") var value: String

        func run() throws {
            try ConfigCommand.check(module: module, key: key)
            try location.storage(of: module).set(ConfigCommand.prefix + key, value)
            print("\(module): \(key) = \(value)")
        }
    }

    struct Unset: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unset", abstract: "Remove one setting.")
        @OptionGroup var location: Location
        @Argument(help: "The module id, e.g. main.") var module: String
        @Argument(help: "The setting, e.g. rates_url.") var key: String

        func run() throws {
            try ConfigCommand.check(module: module, key: key)
            let removed = try location.storage(of: module).delete(ConfigCommand.prefix + key)
            print(removed ? "\(module): \(key) removed" : "\(module) had no setting '\(key)'")
        }
    }
}

/// Calls the storage service on a module's behalf, so `den config` obeys the same rules
/// (key and value limits, namespacing) as the module.
struct ModuleStorage {
    let service: StorageService
    let caller: ServiceCaller

    func list(prefix: String) throws -> [StorageEntry] {
        try call(StorageListRequest.operation, StorageListRequest(prefix: prefix), as: StorageListAnswer.self).entries
    }

    func set(_ key: String, _ value: String) throws {
        _ = try call(StorageSetRequest.operation, StorageSetRequest(key: key, value: value), as: Empty.self)
    }

    func delete(_ key: String) throws -> Bool {
        try call(StorageDeleteRequest.operation, StorageDeleteRequest(key: key), as: StorageDeleteAnswer.self).deleted
    }

    private func call<Request: Encodable, Response: Decodable>(_ operation: String, _ request: Request,
                                                                as: Response.Type) throws -> Response {
        let answer = try service.handle(operation, request: WireFormat.encode(request), caller: caller)
        return try WireFormat.decode(Response.self, from: answer)
    }
}
