/// Logging through the host, which tags each line with the module's id.
public protocol ModuleLog: Sendable {
    func log(_ level: LogLevel, _ message: String)
}

public enum LogLevel: String, Codable, Sendable, CaseIterable {
    case debug, info, warning, error
}

public struct LogRequest: Codable, Sendable, Equatable {
    public var level: LogLevel
    public var message: String

    public init(level: LogLevel, message: String) {
        self.level = level
        self.message = message
    }
}

/// `ModuleLog` over the host's `log` service. Logging never throws: a failed call is dropped.
public struct HostLog: ModuleLog {
    private let host: HostServices

    public init(_ host: HostServices) {
        self.host = host
    }

    public func log(_ level: LogLevel, _ message: String) {
        _ = try? host.call("log", LogRequest(level: level, message: message), as: Empty.self)
    }
}
