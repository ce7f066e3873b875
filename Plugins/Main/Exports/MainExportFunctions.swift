import DenKit

/// Main's exports as C functions (den_module.h, den_export_fn), declared in `mainModule`.
enum MainExportFunctions {
    typealias Convert = @convention(c) (UnsafeRawPointer?, Double, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                                        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
    typealias RatesDate = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32

    static let all = [
        ExportDefinition("convert", "(f64 amount, string from, string to) -> string",
                         summary: "Converts an amount with the offline ECB rates, rounded down to 2 decimals (as the screen)",
                         function: mainConvertExport as Convert),
        ExportDefinition("rates_date", "() -> string", summary: "The reference date (YYYY-MM-DD) of the rates convert uses",
                         function: mainRatesDateExport as RatesDate),
    ]
}

@_cdecl("main_convert_export")
func mainConvertExport(_ host: UnsafeRawPointer?, _ amount: Double, _ from: UnsafePointer<CChar>?, _ to: UnsafePointer<CChar>?,
                       _ result: UnsafeMutableRawPointer?, _ error: UnsafeMutableRawPointer?) -> Int32 {
    DenExport.string(result, error) {
        try MainExports(dependencies: .host(DenExport.services(host)))
            .convert(amount: amount, from: DenExport.text(from), to: DenExport.text(to))
    }
}

@_cdecl("main_rates_date_export")
func mainRatesDateExport(_ host: UnsafeRawPointer?, _ result: UnsafeMutableRawPointer?, _ error: UnsafeMutableRawPointer?) -> Int32 {
    DenExport.string(result, error) { MainExports(dependencies: .host(DenExport.services(host))).ratesDate() }
}
