import DenKit
import Foundation

/// Hot-swap state: from, to and amount as JSON, `{"v":1,"from":"USD","to":"EUR","amount":"12.5"}`.
/// Restore validates everything against the new version's rates and input rules and throws
/// (the host then keeps the fresh state) rather than apply part of it.
final class MainStateCodec: ModuleStateCodec {
    struct Snapshot: Codable, Equatable {
        var v: Int
        var from: String
        var to: String
        var amount: String
    }

    static let version = 1
    private let presenter: MainPresenter

    init(presenter: MainPresenter) {
        self.presenter = presenter
    }

    func snapshot() throws -> Data {
        let state = presenter.state
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(Snapshot(v: Self.version, from: state.from.code, to: state.to.code, amount: state.amount))
    }

    func restore(_ data: Data) throws {
        let snapshot: Snapshot
        do {
            snapshot = try JSONDecoder().decode(Snapshot.self, from: data)
        } catch {
            throw ModuleError.invalidParameter("unreadable Main state: \(error)")
        }
        guard snapshot.v <= Self.version else {
            throw ModuleError.invalidParameter("Main state version \(snapshot.v) is newer than \(Self.version)")
        }
        guard let from = Currency(code: snapshot.from), let to = Currency(code: snapshot.to) else {
            throw ModuleError.invalidParameter("the Main state has an invalid currency code")
        }
        try presenter.restore(SavedConversion(from: from, to: to, amount: snapshot.amount))
    }
}
