import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small blocking HTTP/1.1 client for the monolith figure's setup (register, log in, seed jogs,
/// read pages): one request per connection, only ever to 127.0.0.1, a 30 s limit on every read.
/// Redirects are not followed; the caller reads `Location`.
enum LoopbackHTTP {
    struct Reply {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: String

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// `name=value` of the Set-Cookie for `cookie`, if the reply sets it.
        func setCookie(_ cookie: String) -> String? {
            for (name, value) in headers where name.lowercased() == "set-cookie" && value.hasPrefix(cookie + "=") {
                return value.split(separator: ";").first.map(String.init)
            }
            return nil
        }

        /// The `value` of the first `<input … name="NAME" value="…">` of the page, unescaped.
        func inputValue(_ name: String) -> String? {
            guard let range = body.range(of: "name=\"\(name)\" value=\"") else { return nil }
            let rest = body[range.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { return nil }
            return String(rest[..<end]).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `application/x-www-form-urlencoded` as a browser writes it: unreserved bytes kept, space as
    /// `+`, everything else `%XX`.
    static func formEncoded(_ fields: [(String, String)]) -> String {
        fields.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }

    static func encode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "*"):
                bytes.append(byte)
            case UInt8(ascii: " "):
                bytes.append(UInt8(ascii: "+"))
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func get(_ port: Int, _ path: String, cookie: String? = nil) throws -> Reply {
        try send(port, "GET", path, cookie: cookie, body: nil)
    }

    static func post(_ port: Int, _ path: String, cookie: String?, form: [(String, String)]) throws -> Reply {
        try send(port, "POST", path, cookie: cookie, body: formEncoded(form))
    }

    static func send(_ port: Int, _ method: String, _ path: String, cookie: String?, body: String?) throws -> Reply {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "cannot connect to 127.0.0.1:\(port)") }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nUser-Agent: den-bench\r\n"
        if let cookie { head += "Cookie: \(cookie)\r\n" }
        if let body {
            head += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n"
        }
        let request = Array((head + "\r\n" + (body ?? "")).utf8)
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure(description: "write to 127.0.0.1:\(port) failed") }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            guard n > 0 else { throw Failure(description: "no answer from 127.0.0.1:\(port) to \(method) \(path) within 30 s") }
            received += buffer[0..<n]
        }
        return try parse(received, what: "\(method) \(path)")
    }

    private static func parse(_ bytes: [UInt8], what: String) throws -> Reply {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = (0..<max(bytes.count - 3, 0)).first(where: { bytes[$0..<($0 + 4)].elementsEqual(separator) }) else {
            throw Failure(description: "\(what): no HTTP head in the answer")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1."), let status = Int(statusLine.split(separator: " ")[1]) else {
            throw Failure(description: "\(what): bad status line")
        }
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Array(bytes[(end + 4)...])
        if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased().contains("chunked") }) {
            var decoded: [UInt8] = [], index = 0
            while index < body.count, let lineEnd = (index..<(body.count - 1)).first(where: { body[$0] == 13 && body[$0 + 1] == 10 }) {
                let size = Int(String(decoding: body[index..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
                if size == 0 { break }
                decoded += body[(lineEnd + 2)..<min(lineEnd + 2 + size, body.count)]
                index = lineEnd + 2 + size + 2
            }
            body = decoded
        }
        return Reply(status: status, headers: headers, body: String(decoding: body, as: UTF8.self))
    }
}
