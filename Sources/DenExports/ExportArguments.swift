import CDenABI
import DenKit
import DenSupport
import FoundationEssentials

/// Turns what a caller gave — words from the command line, or JSON values from `exports.call` —
/// into values of the export's declared types, refusing the wrong count or type with a message
/// that shows the expected signature.
package enum ExportArguments {
    /// Command-line words: `100 USD EUR` for `(f64 amount, string from, string to)`.
    package static func parse(_ words: [String], for export: ModuleExport) throws(ExportCallFailure) -> [ExportValue] {
        try checkCount(words.count, for: export)
        var values: [ExportValue] = []
        for (index, (word, parameter)) in zip(words, export.signature.parameters).enumerated() {
            let value: ExportValue? = switch parameter.type {
            case .i64: Int64(word).map(ExportValue.i64)
            case .f64: Double(word).flatMap { $0.isFinite ? ExportValue.f64($0) : nil }
            case .bool: ["true": true, "false": false][word].map(ExportValue.bool)
            case .string: word.utf8.contains(0) ? nil : .string(word)
            case .void: nil
            }
            guard let value else { throw mismatch(index, parameter, given: "'\(ModuleText.singleLine(word, limit: 80))'", export) }
            values.append(value)
        }
        return values
    }

    /// JSON values: numbers, booleans, strings. An i64 is accepted where an f64 is declared.
    package static func check(_ given: [ExportValue], for export: ModuleExport) throws(ExportCallFailure) -> [ExportValue] {
        try checkCount(given.count, for: export)
        var values: [ExportValue] = []
        for (index, (value, parameter)) in zip(given, export.signature.parameters).enumerated() {
            let converted: ExportValue? = switch (parameter.type, value) {
            case (.i64, .i64), (.bool, .bool): value
            case (.f64, .f64(let number)): number.isFinite ? value : nil
            case (.f64, .i64(let number)): .f64(Double(number))
            case (.string, .string(let text)): text.utf8.contains(0) ? nil : value
            default: nil
            }
            guard let converted else { throw mismatch(index, parameter, given: describe(value), export) }
            values.append(converted)
        }
        return values
    }

    private static func checkCount(_ count: Int, for export: ModuleExport) throws(ExportCallFailure) {
        let expected = export.signature.parameters.count
        guard count == expected else {
            throw ExportCallFailure(.badArguments, status: DEN_ERR_INVALID_ARGUMENT,
                                    "\(export.name) takes \(expected) argument\(expected == 1 ? "" : "s"), \(count) given; expected \(export.declaration)")
        }
    }

    private static func mismatch(_ index: Int, _ parameter: ExportSignature.Parameter, given: String,
                                 _ export: ModuleExport) -> ExportCallFailure {
        let name = parameter.name.map { " (\($0))" } ?? ""
        return ExportCallFailure(.badArguments, status: DEN_ERR_INVALID_ARGUMENT,
                                 "\(export.name): argument \(index + 1)\(name) must be \(parameter.type), \(parameter.type.expected); \(given) is not. Expected \(export.declaration)")
    }

    private static func describe(_ value: ExportValue) -> String {
        switch value {
        case .string(let text): text.utf8.contains(0) ? "a string holding NUL" : "the string \"\(ModuleText.singleLine(text, limit: 80))\""
        case .f64(let number) where !number.isFinite: "\(number)"
        default: "the \(value.type) \(value)"
        }
    }
}

