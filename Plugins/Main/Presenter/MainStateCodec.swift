import DenKit
import Foundation

/// Hot-swap state through DenKit's `CodableState`: `{"v":2,"state":{"amount":"12.5","from":"USD","to":"EUR"}}`.
/// Version 1, written by Main before it used `CodableState`, was flat
/// (`{"v":1,"from":"USD","to":"EUR","amount":"12.5"}`) and is migrated, so a swap from an older
/// build keeps its state. Restore validates everything against the new version's rates and
/// input rules and throws (the host then builds the screen fresh and says so) rather than apply
/// part of it.
enum MainStateCodec {
    struct Snapshot: Codable, Equatable {
        var from: String
        var to: String
        var amount: String
    }

    static let version = 2

    static func make(presenter: MainPresenter) -> CodableState<Snapshot> {
        // Weak: the instance holds the view, which holds the presenter; the codec must not keep it.
        CodableState(version: version, save: { [weak presenter] in
            guard let state = presenter?.state else { throw ModuleError.failed("the Main screen is gone") }
            return Snapshot(from: state.from.code, to: state.to.code, amount: state.amount)
        }, load: { [weak presenter] snapshot in
            guard let from = Currency(code: snapshot.from), let to = Currency(code: snapshot.to) else {
                throw ModuleError.invalidParameter("the Main state has an invalid currency code")
            }
            try presenter?.restore(SavedConversion(from: from, to: to, amount: snapshot.amount))
        }, migrate: { version, document in
            // Version 1 is the flat document; its extra `v` key is ignored like any unknown key.
            guard version == 1 else { throw ModuleError.invalidParameter("Main state version \(version) is unknown") }
            return try JSONDecoder().decode(Snapshot.self, from: document)
        })
    }
}
