import DenKit

/// Jogs' exports as C functions (den_module.h, den_export_fn), declared in `jogsModule`.
enum JogsExportFunctions {
    typealias WeeklyTotals = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32

    static let all = [
        ExportDefinition("weekly_totals", "() -> string",
                         summary: "The logged-in user's jogs per ISO week as JSON (only within that user's UI session)",
                         function: jogsWeeklyTotalsExport as WeeklyTotals),
    ]
}

@_cdecl("jogs_weekly_totals_export")
func jogsWeeklyTotalsExport(_ host: UnsafeRawPointer?, _ result: UnsafeMutableRawPointer?, _ error: UnsafeMutableRawPointer?) -> Int32 {
    DenExport.string(result, error) { try JogsExports(dependencies: .host(DenExport.services(host))).weeklyTotals() }
}
