import SwiftFaultsModule
import DenKit

/// The one function den calls (den_module.h).
@_cdecl("den_module_entry")
public func denModuleEntry(host: UnsafeRawPointer?, registrar: UnsafeRawPointer?) -> Int32 {
    DenModule.entry(host: host, registrar: registrar, module: swiftFaultsModule)
}
