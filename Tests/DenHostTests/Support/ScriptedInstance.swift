import DenKit

/// An instance whose every event is answered by a closure (tests spell out the module's reply).
final class ScriptedInstance: ModuleInstance {
    private let reply: (ModuleEvent) throws -> ModuleReply

    init(_ reply: @escaping (ModuleEvent) throws -> ModuleReply) {
        self.reply = reply
    }

    func handle(_ event: ModuleEvent) throws -> ModuleReply {
        try reply(event)
    }
}
