import CDenABI

extension DenModule {
    /// Registers the module's exports (ABI revision 2). A bad declaration is the author's bug and
    /// refuses the load, saying why; on an older host the module loads without its exports
    /// (they are an offer to others, not something its own screens need), and the log says so.
    static func registerExports(_ module: ModuleDefinition, host: UnsafePointer<den_host>, registrar: den_registrar,
                                services: HostServices) -> Int32 {
        guard !module.exports.isEmpty else { return DEN_OK.rawValue32 }
        for export in module.exports {
            if let problem = export.problem {
                HostLog(services).log(.error, "module '\(module.id)' declares an export wrongly: \(problem)")
                return DEN_ERR_INVALID_ARGUMENT.rawValue32
            }
        }
        guard host.pointee.abi_revision >= 2, let addExport = registrar.add_export else {
            HostLog(services).log(.warning, "module '\(module.id)' exports \(module.exports.map { $0.name }.joined(separator: ", ")), but this host (ABI revision \(host.pointee.abi_revision)) has no exports (revision 2); they are not offered")
            return DEN_OK.rawValue32
        }
        for export in module.exports {
            let function = unsafeBitCast(export.function!, to: den_export_fn.self)
            let status = addExport(registrar.ctx, export.name, export.signature, export.summary, function)
            guard status == DEN_OK.rawValue32 else { return status }
        }
        return DEN_OK.rawValue32
    }
}
