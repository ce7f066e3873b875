import ArgumentParser
import DenCommandLine
import DenHost
import DenKit
import DenSupport
import Foundation

/// `den call <module>.<function> [args…]`: calls a module's export (docs/ABI.md, "Exports").
struct CallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Call a function a module exports, e.g. den call main.convert 100 USD EUR.",
        discussion: """
        Arguments are checked against the export's signature (den exports lists them): i64 a whole \
        number, f64 a number, bool true or false, string any text. Options go before the export's \
        name; every word after it is an argument (so -5 is a number). The call runs outside any UI \
        session, under the call limit (--call-timeout).

        Prints the result (nothing for void; control characters in a string made visible); --json prints {"name", "type", "result"}. \
        Exit status: 0 the call returned a result; 1 the export failed (its message is printed), \
        broke the calling convention, did not return within the call limit, or no loaded module \
        offers it; 64 the arguments do not match the signature, or the name is not <module>.<function>.
        """)

    @OptionGroup var host: HostOptions

    @Flag(help: "Print the result as JSON: {\"name\", \"type\", \"result\"} (no \"result\" for void).")
    var json = false

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp(
        "The export, <module>.<function>, then its arguments.", valueName: "module.function [argument ...]"))
    var words: [String] = []

    func run() throws {
        guard let name = words.first else {
            throw ValidationError("name an export, e.g. den call main.convert 100 USD EUR (den exports lists them)")
        }
        let runtime = try host.makeRuntime(oneShot: true)
        // A one-shot process: an export past the call limit ends it at once, with the error.
        let limit = runtime.configuration.callPolicy.timeout
        let ending = ProcessEnding(status: ExitStatus.failure, consequence: "den call ends here") { _ in
            "Error: \(DenRuntime.gaveUpText(name, after: limit))\n"
        }
        switch runtime.callExport(name, words: Array(words.dropFirst()), handOff: CallHandOff(ending: ending)) {
        case .success(let value):
            if json {
                let document = CallResultDocument(name: name, type: value.type.rawValue, result: value == .void ? nil : value)
                print(String(decoding: try WireFormat.encode(document), as: UTF8.self))
            } else if value != .void {
                // A module's text may hold terminal escapes: made visible here; --json is exact.
                print(ModuleText.sanitize(value.description))
            }
        case .failure(let failure):
            var message = failure.message
            if failure.kind == .badArguments, words.dropFirst().contains(where: { $0.hasPrefix("--") }) {
                message += " (options go before the export's name: den call --json \(name) ...)"
            }
            FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
            // A malformed name is a usage mistake (DEN_ERR_INVALID_ARGUMENT); a missing export is not.
            let usage = failure.kind == .badArguments || (failure.kind == .unknownExport && failure.status == 1)
            throw ExitCode(usage ? ExitStatus.usage : ExitStatus.failure)
        }
    }
}

/// `den call --json` output.
private struct CallResultDocument: Encodable {
    var name: String
    var type: String
    var result: ExportValue?
}
