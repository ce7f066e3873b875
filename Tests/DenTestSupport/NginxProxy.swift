import Foundation

/// nginx on a free loopback port in front of `den serve` hosts, for the deployment tests: round
/// robin (no stickiness, so requests land on every host), a failed host retried on the next one
/// (`proxy_next_upstream`), each request's upstream in `access.log`. Its files live in a
/// temporary folder; `stop()` (or release) ends it. Needs Debian's `nginx` (Scripts/setup.sh).
package final class NginxProxy: @unchecked Sendable {
    package let port: Int
    package let folder: URL
    /// posix_spawn, not Foundation's Process (Spawn.swift says why); nil until started.
    private var process: Spawned?

    package convenience init(upstreams: [Int]) throws {
        let servers = upstreams.map { "        server 127.0.0.1:\($0) max_fails=1 fail_timeout=1s;" }.joined(separator: "\n")
        try self.init(http: """
                upstream den {
            \(servers)
                }
            """, location: """
                    location / {
                        proxy_pass http://den;
                        proxy_set_header Host $host;
                        proxy_connect_timeout 1s;
                        proxy_next_upstream error timeout http_502 http_503;
                        proxy_next_upstream_tries 3;
                    }
            """)
    }

    /// nginx serving `folder` as static files under `prefix` (a module catalog, docs/CATALOG.md),
    /// at most `bytesPerSecond` to each request when given (a slow link, for progress to show).
    package convenience init(serving folder: URL, under prefix: String, bytesPerSecond: Int? = nil) throws {
        try self.init(http: "", location: """
                    location \(prefix) {
                        alias \(folder.path)/;
                        autoindex off;
                        \(bytesPerSecond.map { "limit_rate \($0);" } ?? "")
                    }
            """)
    }

    private init(http: String, location: String) throws {
        guard let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw ClusterFailure("nginx is not installed: run Scripts/setup.sh (Debian's nginx package)")
        }
        port = try PostgresCluster.freePort()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("den-nginx-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // nginx's workers run as nobody when started by root: they write their temp files here.
        for name in ["body", "proxy", "fastcgi", "uwsgi", "scgi"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o777])
        }
        let path = folder.path
        let configuration = """
            worker_processes 1;
            error_log \(path)/error.log warn;
            pid \(path)/nginx.pid;
            events { worker_connections 512; }
            http {
                log_format upstreams '$upstream_addr $status $request_uri';
                access_log \(path)/access.log upstreams;
                client_body_temp_path \(path)/body;
                proxy_temp_path \(path)/proxy;
                fastcgi_temp_path \(path)/fastcgi;
                uwsgi_temp_path \(path)/uwsgi;
                scgi_temp_path \(path)/scgi;
            \(http)
                server {
                    listen 127.0.0.1:\(port);
            \(location)
                }
            }
            """
        let file = folder.appendingPathComponent("nginx.conf")
        try Data(configuration.utf8).write(to: file)
        let process = try Spawned(URL(fileURLWithPath: nginx), ["-p", path, "-c", file.path, "-e", "\(path)/error.log", "-g", "daemon off;"],
                                  environment: ProcessInfo.processInfo.environment)
        self.process = process
        try? process.input.close()
        // Whatever it prints is read and dropped (its logs are files), so it never waits on a pipe.
        for handle in [process.output, process.errors] { Thread { while !handle.availableData.isEmpty {} }.start() }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if (try? RawHTTP.connect(port)).map({ close($0) }) != nil { return }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        stop()
        throw ClusterFailure("nginx did not start on port \(port): \((try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? "")")
    }

    /// Each proxied request's upstream address and status, in order (`127.0.0.1:8081 200 /jogs`).
    package var accessLog: [String] {
        ((try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// What nginx logged (upstream errors).
    package var errorLog: String {
        (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    }

    package func stop() {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
