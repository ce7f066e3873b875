import CDenABI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Helpers for the body of an exported `@_cdecl` function: they turn a Swift result or a thrown
/// error into the calling convention of den_module.h (result pointer, error `den_owned`, status).
///
/// ```swift
/// @_cdecl("main_rates_date")
/// func mainRatesDate(_ host: UnsafeRawPointer?, _ result: UnsafeMutableRawPointer?,
///                    _ error: UnsafeMutableRawPointer?) -> Int32 {
///     DenExport.string(result, error) { try ratesDate(services: DenExport.services(host)) }
/// }
/// ```
///
/// A thrown `ExportFailure` gives its own status; `ModuleError.invalidParameter` gives
/// `DEN_ERR_INVALID_ARGUMENT`; anything else `DEN_ERR_INTERNAL`. The message is the error's text.
public enum DenExport {
    /// The module's host services, from the `host` argument every export receives.
    public static func services(_ host: UnsafeRawPointer?) -> HostServices {
        HostServices(host?.assumingMemoryBound(to: den_host.self))
    }

    /// A `string` argument (the host never passes NULL; "" if it did).
    public static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    public static func string(_ result: UnsafeMutableRawPointer?, _ error: UnsafeMutableRawPointer?,
                              _ body: () throws -> String) -> Int32 {
        run(error) {
            let value = try body()
            result?.assumingMemoryBound(to: den_owned.self).pointee = OwnedBuffer.make(value)
        }
    }

    public static func i64(_ result: UnsafeMutableRawPointer?, _ error: UnsafeMutableRawPointer?,
                           _ body: () throws -> Int64) -> Int32 {
        run(error) { result?.assumingMemoryBound(to: Int64.self).pointee = try body() }
    }

    public static func f64(_ result: UnsafeMutableRawPointer?, _ error: UnsafeMutableRawPointer?,
                           _ body: () throws -> Double) -> Int32 {
        run(error) { result?.assumingMemoryBound(to: Double.self).pointee = try body() }
    }

    public static func bool(_ result: UnsafeMutableRawPointer?, _ error: UnsafeMutableRawPointer?,
                            _ body: () throws -> Bool) -> Int32 {
        run(error) { result?.assumingMemoryBound(to: Bool.self).pointee = try body() }
    }

    /// For a `-> void` export (its C function has no result parameter).
    public static func void(_ error: UnsafeMutableRawPointer?, _ body: () throws -> Void) -> Int32 {
        run(error, body)
    }

    private static func run(_ errorOut: UnsafeMutableRawPointer?, _ body: () throws -> Void) -> Int32 {
        do {
            try body()
            return DEN_OK.rawValue32
        } catch {
            let code: Int32 = (error as? ExportFailure)?.status ?? status(for: error).rawValue32
            let text = (error as? ExportFailure)?.message ?? message(for: error)
            errorOut?.assumingMemoryBound(to: den_owned.self).pointee = OwnedBuffer.make(text)
            return code == DEN_OK.rawValue32 ? DEN_ERR_INTERNAL.rawValue32 : code
        }
    }
}

/// An export's failure with a status of its choice and a message for the caller to show.
public struct ExportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: Int32
    public var message: String

    public init(status: Int32 = 1, _ message: String) {
        self.status = status
        self.message = message
    }

    /// `DEN_ERR_INVALID_ARGUMENT`: the caller's values were wrong.
    public static func invalidArgument(_ message: String) -> ExportFailure { ExportFailure(status: 1, message) }
    /// `DEN_ERR_NOT_FOUND`: what the values name does not exist.
    public static func notFound(_ message: String) -> ExportFailure { ExportFailure(status: 2, message) }
    /// `DEN_ERR_SERVICE`: a host service the export needs failed.
    public static func service(_ message: String) -> ExportFailure { ExportFailure(status: 6, message) }

    public var description: String { message }
}
