import DenKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Hot-swap state: the typed username and `next`, `{"v":1,"username":"alice","next":"jogs"}`
/// (`next` left out when there is none). Never a password: the presenter keeps none.
/// Restore checks `next` with the new version's rules and throws (the host then keeps the fresh
/// state) rather than apply part of it.
final class LoginStateCodec: ModuleStateCodec {
    struct Snapshot: Codable, Equatable {
        var v: Int
        var username: String
        var next: String?
    }

    static let version = 1
    private let presenter: LoginPresenter

    init(presenter: LoginPresenter) {
        self.presenter = presenter
    }

    func snapshot() throws -> Data {
        let state = presenter.state
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Snapshot(v: Self.version, username: state.username, next: state.next?.route))
    }

    func restore(_ data: Data) throws {
        let snapshot: Snapshot
        do {
            snapshot = try JSONDecoder().decode(Snapshot.self, from: data)
        } catch {
            throw ModuleError.invalidParameter("unreadable Login state: \(WireFormat.describe(error))")
        }
        guard snapshot.v <= Self.version else {
            throw ModuleError.invalidParameter("Login state version \(snapshot.v) is newer than \(Self.version)")
        }
        let next: NextRoute?
        do {
            next = try NextRoute.parse(snapshot.next)
        } catch {
            throw ModuleError.invalidParameter("the Login state's next route is refused: \(error)")
        }
        presenter.restore(LoginPresenter.State(username: snapshot.username, next: next))
    }
}
