// jogs-monolith: the app a user would write instead of Den for Den's Jogs pages — Hummingbird 2
// and GRDB in one process, no plugins, no module calls, no JSON between parts. It is the baseline
// of den-bench's monolith figure (docs/PERFORMANCE.md).
//
//     jogs-monolith --data-dir <folder> [--port 0] [--host 127.0.0.1]
//
// Prints "jogs-monolith is serving on http://127.0.0.1:PORT" once bound. Pages: /register,
// /login, /logout (post), /jogs (list with a date filter), /jogs/new, /jogs/<id> (edit, delete),
// /jogs/report, /assets/app.css, /_health.
import Foundation
import Hummingbird

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
guard let dataDirectory = option("--data-dir") else {
    FileHandle.standardError.write(Data("usage: jogs-monolith --data-dir <folder> [--port 0] [--host 127.0.0.1]\n".utf8))
    exit(2)
}
let storage = try Storage(directory: URL(fileURLWithPath: dataDirectory))
let router = Monolith(storage: storage, sessions: Sessions()).routes()
let host = option("--host") ?? "127.0.0.1"
let port = option("--port").flatMap(Int.init) ?? 8090
// Hummingbird's default logger (swift-log's stream handler, level info), as an app gets it.
let app = Application(router: router, configuration: .init(address: .hostname(host, port: port), serverName: nil),
                      onServerRunning: { channel in
                          // Written unbuffered: den-bench reads the port from this line.
                          FileHandle.standardOutput.write(Data("jogs-monolith is serving on http://\(host):\(channel.localAddress?.port ?? 0)\n".utf8))
                      })
try await app.runService()
