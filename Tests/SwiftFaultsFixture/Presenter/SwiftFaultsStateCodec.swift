import DenKit

/// The screen's state through DenKit's `CodableState`: `{"v":1,"state":{"count":3}}`. The worker
/// sends it to den after every event; after a crash den restores the new worker's screen from it.
enum SwiftFaultsStateCodec {
    static func make(presenter: SwiftFaultsPresenter) -> CodableState<Tally> {
        // Weak: the instance holds the view, which holds the presenter.
        CodableState(version: 1, save: { [weak presenter] in
            guard let presenter else { throw ModuleError.failed("the swift-faults screen is gone") }
            return presenter.tally
        }, load: { [weak presenter] tally in
            if tally.count == Tally.crashesRestore { fatalError("swift-faults: restoring count \(tally.count)") }
            guard tally.count >= 0 else { throw ModuleError.invalidParameter("a swift-faults count is never negative, not \(tally.count)") }
            presenter?.tally = tally
        })
    }
}
