/// Display-ready text for the swift-faults screen, made by the presenter.
struct SwiftFaultsViewObject: Equatable {
    var countLine: String
    /// One button per fault, by id (`Fault`'s raw values).
    var faults: [String]

    static let loading = SwiftFaultsViewObject(countLine: "", faults: [])
}
