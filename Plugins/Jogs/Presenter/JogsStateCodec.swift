import DenKit
import Foundation

/// Hot-swap state: which screen, what is typed in its fields, and whether a delete awaits
/// confirmation, as JSON: `{"v":1,"screen":"new","fields":{"date":"2026-01-05","distance":"5,","duration":""},"confirming_delete":false}`.
/// Never stored data: the new version reads the jogs itself, for the user logged in then.
/// Restore refuses (and the host keeps the fresh state) rather than apply part of a state.
final class JogsStateCodec: ModuleStateCodec {
    struct Snapshot: Codable, Equatable {
        var v: Int
        var screen: JogsScreenState.Screen
        var fields: [String: String]
        var confirmingDelete: Bool?

        private enum CodingKeys: String, CodingKey {
            case v, screen, fields
            case confirmingDelete = "confirming_delete"
        }
    }

    static let version = 1
    private let presenter: any JogsPresenterInput

    init(presenter: any JogsPresenterInput) {
        self.presenter = presenter
    }

    func snapshot() throws -> Data {
        let state = presenter.state
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(Snapshot(v: Self.version, screen: state.screen, fields: state.fields,
                                           confirmingDelete: state.confirmingDelete))
    }

    func restore(_ data: Data) throws {
        let snapshot: Snapshot
        do {
            snapshot = try JSONDecoder().decode(Snapshot.self, from: data)
        } catch {
            throw ModuleError.invalidParameter("unreadable Jogs state: \(error)")
        }
        guard snapshot.v <= Self.version else {
            throw ModuleError.invalidParameter("Jogs state version \(snapshot.v) is newer than \(Self.version)")
        }
        try presenter.restore(JogsScreenState(screen: snapshot.screen, fields: snapshot.fields,
                                              confirmingDelete: snapshot.confirmingDelete ?? false))
    }
}
