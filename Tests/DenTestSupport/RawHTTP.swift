import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 client over a plain socket, for tests of `den serve`: whole GETs with a
/// cookie kept by the caller, and a server-sent-event stream read as it arrives.
package enum RawHTTP {
    package struct Reply: Sendable {
        package var status: Int
        package var head: String
        package var body: String

        /// The `den_session` cookie the reply sets, if any.
        package var sessionCookie: String? {
            head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: den_session=") }
                .map { String($0.dropFirst("set-cookie: ".count).prefix { $0 != ";" }) }
        }

        /// The `den_rev` cookie the reply sets (`den_rev=<revision>`), if any.
        package var revisionCookie: String? {
            head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: den_rev=") }
                .map { String($0.dropFirst("set-cookie: ".count).prefix { $0 != ";" }) }
        }
    }

    package static func connect(_ port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(message: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(message: "connect to port \(port): \(errno)")
        }
        return fd
    }

    package static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// One GET, read to the end (the request says `Connection: close`).
    package static func get(port: Int, _ path: String, cookie: String? = nil, headers: [String: String] = [:]) throws -> Reply {
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        return try request(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\(cookie.map { "Cookie: \($0)\r\n" } ?? "")\(extra)\r\n")
    }

    /// One form POST (`application/x-www-form-urlencoded`; the caller encodes `form`).
    package static func post(port: Int, _ path: String, form: String, cookie: String, headers: [String: String] = [:]) throws -> Reply {
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        return try request(port: port, "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nCookie: \(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\(extra)\r\n\(form)")
    }

    private static func request(port: Int, _ text: String) throws -> Reply {
        let fd = try connect(port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        send(fd, text)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        let text = String(decoding: data, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return Reply(status: status, head: head, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// Reads a `text/event-stream` on a background thread; `wait(for:)` waits for text in it.
    package final class EventStream: @unchecked Sendable {
        private let fd: Int32
        private let lock = NSLock()
        private var received = ""
        private var ended = false

        package init(port: Int, path: String) throws {
            fd = try RawHTTP.connect(port)
            RawHTTP.send(fd, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            let thread = Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if count <= 0 { break }
                    let chunk = String(decoding: buffer[0..<count], as: UTF8.self)
                    lock.withLock { received += chunk }
                }
                lock.withLock { ended = true }
            }
            thread.start()
        }

        deinit { Glibc.close(fd) }

        package var text: String { lock.withLock { received } }
        package var hasEnded: Bool { lock.withLock { ended } }

        /// True once `text` contains `needle` (after `from` characters), false after `seconds`.
        package func wait(for needle: String, after from: Int = 0, seconds: Double = 15) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                let now = text
                if now.count > from, now.dropFirst(from).contains(needle) { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return false
        }

        package func close() { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    package struct Failure: Error, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }
}
