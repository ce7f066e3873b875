import CDenABI
import DenKit
import DenSupport

/// Checks one `add_export` call (den_module.h, revision 2) and prepares its libffi interface.
package enum ExportDeclaration {
    /// The export, or the status and problem that refuse it (and so the plugin).
    package static func check(name: UnsafePointer<CChar>?, signature: UnsafePointer<CChar>?, summary: UnsafePointer<CChar>?,
                      function: den_export_fn?, existing: [PluginExport],
                      libffi: Result<LibFFI, LibFFI.LoadFailure> = LibFFI.shared) -> Result<PluginExport, RegistrationRefusal> {
        guard let name, let signature, let summary, let function else {
            return .failure(RegistrationRefusal(status: DEN_ERR_INVALID_ARGUMENT, problem: "add_export was called with a NULL name, signature, summary or function"))
        }
        let nameText = String(cString: name)
        guard ExportName.isValid(nameText) else {
            return .failure(RegistrationRefusal(status: DEN_ERR_INVALID_ARGUMENT,
                                                problem: "export name '\(ModuleText.singleLine(nameText, limit: 80))' is not valid (\(ExportName.rule))"))
        }
        guard !existing.contains(where: { $0.function == nameText }) else {
            return .failure(RegistrationRefusal(status: DEN_ERR_CONFLICT, problem: "export '\(nameText)' was declared twice; each export name must be unique in its module"))
        }
        let parsed: ExportSignature
        do {
            parsed = try ExportSignature(parsing: String(cString: signature))
        } catch {
            return .failure(RegistrationRefusal(status: DEN_ERR_INVALID_ARGUMENT,
                                                problem: "export '\(nameText)': \(ModuleText.singleLine(error.description, limit: 400))"))
        }
        let interface: FFICallInterface
        do {
            interface = try FFICallInterface(parsed, libffi: libffi)
        } catch .noLibrary(let failure) {
            return .failure(RegistrationRefusal(status: DEN_ERR_INTERNAL, problem: "export '\(nameText)' cannot be called: \(failure)"))
        } catch {
            return .failure(RegistrationRefusal(status: DEN_ERR_INTERNAL, problem: "export '\(nameText)': libffi could not prepare a call of \(parsed)"))
        }
        return .success(PluginExport(function: nameText, signature: parsed, summary: String(cString: summary),
                                     pointer: function, interface: interface))
    }
}

extension ExportDeclaration {
    /// True for a problem this file reported, so `PluginLoadError` can suggest the fix.
    package static func isExportProblem(_ problem: String) -> Bool {
        problem.hasPrefix("export ") || problem.hasPrefix("add_export ")
    }
}

/// A registrar call refused: the status it returns and the problem the plugin's record shows.
package struct RegistrationRefusal: Error {
    package var status: den_status
    package var problem: String
}
