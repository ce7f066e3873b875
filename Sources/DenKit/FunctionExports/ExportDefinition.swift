/// A function a module exports (ABI revision 2): `den call <module>.<name>` and other modules'
/// `exports.call` reach it. Declare it in `ModuleDefinition.exports`:
///
/// ```swift
/// @_cdecl("greeter_shout")
/// func greeterShout(_ host: UnsafeRawPointer?, _ text: UnsafePointer<CChar>?,
///                   _ result: UnsafeMutableRawPointer?, _ error: UnsafeMutableRawPointer?) -> Int32 {
///     DenExport.string(result, error) { DenExport.text(text).uppercased() }
/// }
/// typealias ShoutFunction = @convention(c) (UnsafeRawPointer?, UnsafePointer<CChar>?,
///                                           UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
///
/// ExportDefinition("shout", "(string text) -> string", summary: "Upper-cases a text",
///                  function: greeterShout as ShoutFunction)
/// ```
///
/// The C function's shape follows from the signature (den_module.h, den_export_fn): the module's
/// host first, then one parameter per declared parameter, then the result pointer (left out for
/// `void`), then the error message's `den_owned`.
public struct ExportDefinition: @unchecked Sendable {
    // The function pointer is the plugin's code, valid for the process lifetime.
    public var name: String
    public var signature: String
    public var summary: String
    /// The C function; nil when `function` was not a `@convention(c)` function (refused at load).
    public var function: UnsafeRawPointer?

    public init<Function>(_ name: String, _ signature: String, summary: String, function: Function) {
        self.name = name
        self.signature = signature
        self.summary = summary
        // A @convention(c) function is one pointer; a Swift closure is two words and cannot be
        // called from C: such a declaration is refused with a message when the module loads.
        self.function = MemoryLayout<Function>.size == MemoryLayout<UnsafeRawPointer>.size
            ? unsafeBitCast(function, to: UnsafeRawPointer?.self) : nil
    }

    /// What is wrong with this declaration, or nil when the host may be asked to register it.
    public var problem: String? {
        if !ExportName.isValid(name) { return "export name '\(name)' is not valid (\(ExportName.rule))" }
        if function == nil { return "export '\(name)': its function is not a C function; pass a @_cdecl function as a @convention(c) type" }
        do { _ = try ExportSignature(parsing: signature) } catch { return "export '\(name)': \(error)" }
        return nil
    }
}
