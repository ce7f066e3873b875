import CDenABI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The host's services as a module sees them: a thread-safe JSON request/response call.
/// Modules use the typed clients (`HostLog`, `HostPluginCatalog`, ...) rather than this.
public final class HostServices: @unchecked Sendable {
    // The den_host struct is valid and immutable for the process lifetime (den_module.h).
    private let host: UnsafePointer<den_host>?

    init(_ host: UnsafePointer<den_host>?) {
        self.host = host
    }

    /// Services that fail every call; for module code running without a host (e.g. previews).
    public static let unavailable = HostServices(nil)

    public func call(_ service: String, request: Data) throws(HostServiceError) -> Data {
        guard let host, let call = host.pointee.call else {
            throw HostServiceError(service: service, status: DEN_ERR_NOT_FOUND.rawValue32, message: "no host is attached")
        }
        var response = den_owned(ptr: nil, len: 0, release: nil)
        let status = OwnedBuffer.borrow(request) { call(host.pointee.ctx, service, $0, &response) }
        let body = OwnedBuffer.take(&response)
        guard status == DEN_OK.rawValue32 else {
            throw HostServiceError(service: service, status: status, message: String(decoding: body, as: UTF8.self))
        }
        return body
    }

    public func call<Request: Encodable, Response: Decodable>(
        _ service: String, _ request: Request, as response: Response.Type
    ) throws(HostServiceError) -> Response {
        try call(service, encode: { try WireFormat.encode(request) }, decode: { try WireFormat.decode(Response.self, from: $0) })
    }

    /// `call(_:_:as:)` for documents with a hand-written JSON form (`WireDocument`).
    package func call<Request: WireDocument, Response: WireDocument>(
        _ service: String, _ request: Request, as response: Response.Type
    ) throws(HostServiceError) -> Response {
        try call(service, encode: { try WireFormat.encode(request) }, decode: { try WireFormat.decode(Response.self, from: $0) })
    }

    private func call<Response>(_ service: String, encode: () throws -> Data,
                                decode: (Data) throws -> Response) throws(HostServiceError) -> Response {
        let body: Data
        do {
            body = try encode()
        } catch {
            throw HostServiceError(service: service, status: DEN_ERR_INVALID_ARGUMENT.rawValue32,
                                   message: "could not encode the request: \(error)")
        }
        let answer = try call(service, request: body)
        do {
            return try decode(answer)
        } catch {
            throw HostServiceError(service: service, status: DEN_ERR_INTERNAL.rawValue32,
                                   message: "unreadable answer: \(WireFormat.describe(error))")
        }
    }
}

/// A host service call that failed; `message` is the host's explanation.
public struct HostServiceError: Error, CustomStringConvertible, Equatable {
    public var service: String
    public var status: Int32
    public var message: String

    public init(service: String, status: Int32, message: String) {
        self.service = service
        self.status = status
        self.message = message
    }

    /// Services usually name themselves in their messages; don't say it twice.
    public var description: String { message.hasPrefix(service) ? message : "\(service): \(message)" }
}

/// An empty JSON object, for requests and answers that carry nothing.
public struct Empty: Codable, Sendable, Equatable {
    public init() {}
}

extension Empty: WireDocument {
    /// Any object: keys a later ABI adds are ignored, as JSONDecoder ignores them.
    package init(wire value: JSONValue) throws(JSONMiss) {
        _ = try value.object()
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.endObject()
    }
}
