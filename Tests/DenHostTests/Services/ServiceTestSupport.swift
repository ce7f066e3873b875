import CDenABI
@testable import DenHost
@testable import DenKit
import DenTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shared helpers for the storage and http service specs. Namespaced so they cannot clash with
/// other test files.
enum ServiceTestSupport {
    /// A new empty folder under the system's temporary folder; remove it with `remove`.
    static func temporaryDirectory(_ label: String = "den-services") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func remove(_ url: URL) {
        // Undo any chmod a test made so the folder can be deleted.
        _ = try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        try? FileManager.default.removeItem(at: url)
    }

    /// Calls `operation` of `service` with a JSON text as module `module`; returns the JSON answer.
    @discardableResult
    static func call(_ service: any HostService, _ operation: String, _ json: String,
                     as module: String = "jogs") throws(ServiceFailure) -> String {
        let answer = try service.handle(operation, request: Data(json.utf8), caller: ServiceCaller(moduleID: module))
        return String(decoding: answer, as: UTF8.self)
    }

    /// Encodes `request`, calls the service and decodes the answer.
    static func call<Request: Encodable, Answer: Decodable>(
        _ service: any HostService, _ operation: String, _ request: Request, as module: String = "jogs",
        answer: Answer.Type
    ) throws -> Answer {
        let body = try WireFormat.encode(request)
        let data = try service.handle(operation, request: body, caller: ServiceCaller(moduleID: module))
        return try WireFormat.decode(Answer.self, from: data)
    }

    /// The module-side `HostServices` of module `module`, wired through a real `ServiceHub` and
    /// its C `den_host` endpoint, exactly as a plugin would call them.
    static func hostServices(for module: String, hub: ServiceHub) -> HostServices {
        let endpoint = hub.makeEndpoint(file: "lib\(module)Module.so")
        endpoint.attribute(to: module, permissions: nil) // the services' own behaviour, unchecked
        return HostServices(endpoint.host)
    }

    /// A JSON string literal for `text` (quotes and escapes included).
    static func jsonString(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
}

/// A TCP port on 127.0.0.1 that refuses connections: bound but never listening, and held until
/// `close()` so nothing else can take it meanwhile.
final class ClosedPort {
    let port: Int
    private var descriptor: Int32

    init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw StubServerError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            _ = Self.closeDescriptor(descriptor)
            throw StubServerError("could not reserve a port: errno \(errno)")
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        if descriptor >= 0 { _ = Self.closeDescriptor(descriptor) }
        descriptor = -1
    }

    deinit { close() }

    private static func closeDescriptor(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Darwin.close(descriptor)
        #endif
    }
}

