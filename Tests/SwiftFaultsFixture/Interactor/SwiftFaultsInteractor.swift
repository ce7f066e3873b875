import DenKit

/// What the presenter asks of the interactor.
protocol SwiftFaultsInteractorInput: AnyObject {
    var tally: Tally { get set }
    func count() -> Tally
    /// Fails as asked; returns only if it cannot.
    func fail(_ fault: Fault)
}

/// The module's logic: a counter, and the faults. Answers by return values (no output).
/// The values the faults use come from the tally, so no optimiser can prove them away.
final class SwiftFaultsInteractor: SwiftFaultsInteractorInput, ModuleInteractor {
    var tally = Tally(count: 0)
    /// Written by the busy loop and the allocations so neither is dead code.
    private(set) var spins = 0
    private var hoard: [[UInt8]] = []

    func count() -> Tally {
        tally.count += 1
        return tally
    }

    func fail(_ fault: Fault) {
        switch fault {
        case .fatal:
            fatalError("swift-faults: fatalError at count \(tally.count)")
        case .index:
            let values = [1, 2, 3]
            spins = values[values.count + tally.count]
        case .unwrap:
            let missing = Int("count \(tally.count)")
            spins = missing!
        case .loop:
            while true { spins &+= 1 }
        case .memory:
            while true {
                var block: [UInt8] = []
                block.reserveCapacity(64 << 20)
                hoard.append(block)
            }
        }
    }
}
