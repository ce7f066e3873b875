import DenExports
import DenLibraryContracts
import CDenABI
import DenKit
import DenSupport
import FoundationEssentials
import DenPermissions

/// `exports.call` and `exports.list`: one module calls another's export by name, without linking
/// it (docs/ABI.md, "Exports"). The export runs on the calling thread, so it belongs to the same
/// UI session as the caller's builder or `handle` call, and the caller's call limit covers it.
package struct ExportsService: HostService {
    /// How deep exports may call exports (`a.f` calls `b.g` calls ...): a cycle is stopped here
    /// with a message instead of overflowing the stack.
    package static let maxDepth = 8

    private let table: ExportTable
    private let gate: PermissionGate
    /// Hears of each export call a module makes (the runtime's: metrics, the time share).
    private let observer: (any ModuleCallObserver)?
    /// Why a caller may not call a module's exports now (caller id, callee id): it requires the
    /// callee in a range the loaded version is outside of (docs/CATALOG.md, "Requirements").
    private let requirements: (@Sendable (String, String) -> String?)?

    package init(table: ExportTable, gate: PermissionGate = PermissionGate(), observer: (any ModuleCallObserver)? = nil,
                 requirements: (@Sendable (String, String) -> String?)? = nil) {
        self.requirements = requirements
        self.table = table
        self.gate = gate
        self.observer = observer
    }

    package var operations: [String] { [ExportCallRequest.operation, ExportListAnswer.operation] }

    package func handle(_ operation: String, request: Data, caller: ServiceCaller) throws(ServiceFailure) -> Data {
        if operation == ExportListAnswer.operation {
            _ = try decode(AnyJSONObject.self, request, for: operation) // `{}`: keys a later ABI adds are ignored
            // A module sees its own exports and those it may call, not what else is installed.
            let visible = table.all.filter { export in
                guard caller.permissions != nil, export.moduleID != caller.moduleID else { return true }
                return gate.permits(.export(export.name), caller: caller)
            }
            return try encode(ExportListAnswer(exports: visible.map(\.summaryDocument)), for: operation)
        }
        let call = try decode(ExportCallRequest.self, request, for: operation)
        // A module's own exports are its own code: no permission needed.
        if !Self.isOwn(call.name, of: caller.moduleID) {
            try gate.check(.export(call.name), caller: caller)
            // A module id has no dot: the callee is the name up to the first one.
            if let requirements, let dot = call.name.firstIndex(of: "."),
               let problem = requirements(caller.moduleID, String(call.name[..<dot])) {
                throw ServiceFailure(.versionMismatch, "\(ModuleText.singleLine(call.name, limit: 140)) was not called: \(problem)")
            }
        }
        switch Self.call(call.name, arguments: call.arguments, table: table, observer: observer) {
        case .success(let value):
            return try encode(ExportCallAnswer(result: value), for: operation)
        case .failure(let failure):
            throw ServiceFailure(Self.kind(failure), failure.message)
        }
    }

    /// Whether `name` ("<id>.<function>") is an export of module `moduleID`.
    static func isOwn(_ name: String, of moduleID: String) -> Bool {
        name.utf8.count > moduleID.utf8.count + 1 && name.hasPrefix(moduleID) && name.utf8.dropFirst(moduleID.utf8.count).first == UInt8(ascii: ".")
    }

    /// Finds, checks and calls one export on this thread, counting the depth of nested calls.
    /// `observer` hears of the call once the export is found (metrics, the time share).
    package static func call(_ name: String, arguments: [ExportValue], table: ExportTable,
                             observer: (any ModuleCallObserver)? = nil) -> Result<ExportValue, ExportCallFailure> {
        let depth = ExportCallDepth.current
        guard depth < maxDepth else {
            return .failure(ExportCallFailure(.gaveUp, status: DEN_ERR_INTERNAL,
                                              "\(ModuleText.singleLine(name, limit: 140)) was not called: exports calling exports went \(maxDepth) levels deep (a cycle?)"))
        }
        let export: ModuleExport
        let values: [ExportValue]
        switch table.find(name) {
        case .success(let found): export = found
        case .failure(let failure): return .failure(failure)
        }
        do { values = try ExportArguments.check(arguments, for: export) } catch { return .failure(error) }
        let call = ModuleCall(moduleID: export.moduleID, what: "export \(export.function)", kind: .export, pattern: export.name)
        let started = ContinuousClock.now
        // The export's own span, under the calling module's `exports.call`: its service calls hang under it.
        let span = observer?.moduleCallBegins(call)
        let result = ExportCallDepth.$current.withValue(depth + 1) { CallTrace.with(span) { ExportInvoker.invoke(export, values) } }
        if let observer {
            let status = if case .failure(let failure) = result { failure.status } else { Int32(DEN_OK.rawValue) }
            let ended = ModuleCallResult.returned(status: status)
            observer.moduleCallEnded(call, took: .now - started, result: ended)
            span?.end(error: ended.spanError)
        }
        return result
    }

    /// The service status for a failure. An export's own failure keeps its meaning where a
    /// service status can carry it (`ServiceFailure` has four kinds); the message says the rest.
    static func kind(_ failure: ExportCallFailure) -> ServiceFailure.Kind {
        switch failure.kind {
        case .unknownExport: failure.status == DEN_ERR_NOT_FOUND.rawValue ? .notFound : .invalidArgument
        case .badArguments: .invalidArgument
        case .failed:
            switch UInt32(bitPattern: failure.status) {
            case DEN_ERR_INVALID_ARGUMENT.rawValue: .invalidArgument
            case DEN_ERR_NOT_FOUND.rawValue: .notFound
            case DEN_ERR_SERVICE.rawValue: .unavailable
            default: .internalError
            }
        case .misbehaved, .gaveUp: .internalError
        }
    }
}

/// A request with no keys of its own: any JSON object.
private struct AnyJSONObject: Decodable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyKey.self)
    }
}

/// How many export calls are running, nested, on this thread (see `ExportsService.maxDepth`).
enum ExportCallDepth {
    @TaskLocal static var current = 0
}
