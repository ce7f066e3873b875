import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real nginx serving a catalog folder as static files on a loopback port, as a publisher
/// would host one (docs/CATALOG.md), for the install figure. Its files sit in `folder`; `stop()`
/// ends it. Needs Debian's `nginx` (Scripts/setup.sh installs it).
final class CatalogNginx {
    let port: Int
    /// `http://127.0.0.1:<port>/catalog`: what `den modules sources add` is given.
    let address: String
    private let process: Process

    init(serving catalog: URL, folder: URL) throws {
        guard let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw BenchError("nginx is not installed: run Scripts/setup.sh (Debian's nginx package)")
        }
        port = try Self.freePort()
        address = "http://127.0.0.1:\(port)/catalog"
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Started by root, nginx's worker runs as nobody and writes its temp files here.
        for name in ["body", "proxy", "fastcgi", "uwsgi", "scgi"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o777])
        }
        let path = folder.path
        let configuration = """
            worker_processes 1;
            error_log \(path)/error.log warn;
            pid \(path)/nginx.pid;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(path)/body;
                proxy_temp_path \(path)/proxy;
                fastcgi_temp_path \(path)/fastcgi;
                uwsgi_temp_path \(path)/uwsgi;
                scgi_temp_path \(path)/scgi;
                server {
                    listen 127.0.0.1:\(port);
                    location /catalog/ {
                        alias \(catalog.path)/;
                        autoindex off;
                    }
                }
            }
            """
        let file = folder.appendingPathComponent("nginx.conf")
        try Data(configuration.utf8).write(to: file)
        process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-p", path, "-c", file.path, "-e", "\(path)/error.log", "-g", "daemon off;"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning {
            if let reply = try? LoopbackHTTP.get(port, "/catalog/index.json"), reply.status == 200 { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        stop()
        let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        throw BenchError("nginx did not serve the catalog on port \(port): \(log)")
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }

    /// A port nothing listens on now: bind port 0, read what the kernel gave, let it go.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw BenchError("cannot find a free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
