import DenKit

/// Who hears that a user logged in: the seed's `loggedIn` delegate, across modules.
protocol LoginListening {
    /// The UI session is now logged in as `username`. Never fails the login.
    func userLoggedIn(_ username: String)
}

/// Tells every module that exports `on_login(string username) -> void` (ABI revision 2) that
/// this UI session logged in, by calling it through `exports.call` during Login's own `handle`
/// call: the listener runs in the same UI session, so `session.get` {"key": "user"} agrees.
/// A listener that fails is logged and skipped; the login stands. (docs/modules/login.md)
struct ExportLoginListeners: LoginListening {
    static let function = "on_login"
    static let signature = ExportSignature(parameters: [.init(type: .string, name: nil)], result: .void)

    let exports: any ExportCalling
    let log: (any ModuleLog)?

    func userLoggedIn(_ username: String) {
        let listeners: [ExportSummary]
        do {
            listeners = try exports.list().filter(Self.isListener)
        } catch {
            // A host before revision 2 has no exports: nobody can be listening.
            log?.log(.debug, "no login listeners asked: \(error)")
            return
        }
        for listener in listeners {
            do {
                _ = try exports.call(listener.name, [.string(username)])
            } catch {
                log?.log(.warning, "login listener \(listener.name) failed: \(error.message)")
            }
        }
    }

    /// `<module>.on_login` declared `(string) -> void` (parameter names do not matter).
    static func isListener(_ export: ExportSummary) -> Bool {
        guard export.name == "\(export.module).\(function)",
              let parsed = try? ExportSignature(parsing: export.signature) else { return false }
        return parsed.result == signature.result && parsed.parameters.map(\.type) == signature.parameters.map(\.type)
    }
}
