import DenHost
import FoundationEssentials

/// The worker's first frame: the protocol it speaks, its pid, and the sandbox layers that engaged
/// (docs/ISOLATION.md). `error` says why it cannot serve (the module did not load, or a sandbox
/// it was asked for could not be set up); it then exits.
package struct WorkerHello: Codable, Sendable, Equatable {
    package var protocolVersion: UInt64
    package var pid: Int32
    package var sandbox: [String]
    package var error: String?

    package init(protocolVersion: UInt64 = WorkerProtocol.version, pid: Int32, sandbox: [String], error: String? = nil) {
        self.protocolVersion = protocolVersion
        self.pid = pid
        self.sandbox = sandbox
        self.error = error
    }

    private enum CodingKeys: String, CodingKey { case protocolVersion = "protocol", pid, sandbox, error }
}

/// What the module registered in the worker, replayed by the host through its own registrar so
/// that every rule is checked on the host's side too.
package struct WorkerRegistration: Codable, Sendable, Equatable {
    package struct Route: Codable, Sendable, Equatable {
        package var pattern: String
        package var flags: UInt32

        package init(pattern: String, flags: UInt32) {
            self.pattern = pattern
            self.flags = flags
        }
    }

    package struct Export: Codable, Sendable, Equatable {
        package var name: String
        package var signature: String
        package var summary: String

        package init(name: String, signature: String, summary: String) {
            self.name = name
            self.signature = signature
            self.summary = summary
        }
    }

    package var id: String?
    package var version: String?
    package var summary: String?
    package var routes: [Route] = []
    package var exports: [Export] = []
    /// What the worker's own registrar refused, first problem first.
    package var problems: [String] = []

    package init(id: String?, version: String?, summary: String?, routes: [Route] = [], exports: [Export] = [], problems: [String] = []) {
        self.id = id
        self.version = version
        self.summary = summary
        self.routes = routes
        self.exports = exports
        self.problems = problems
    }
}

/// The sandbox layers' names, as `den plugins` shows them.
package enum SandboxLayer {
    package static let noNewPrivs = "no_new_privs"
    package static let seccomp = "seccomp"
    package static let landlock = "landlock"
}
