/// Display-ready text for the About screen, made by the presenter.
struct AboutViewObject: Equatable {
    struct Row: Equatable {
        var title: String
        var detail: String
    }

    var name: String
    var versionLine: String
    var description: String
    var websiteTitle: String
    var modules: [Row]
    var modulesError: String?

    static let loading = AboutViewObject(name: "About", versionLine: "", description: "", websiteTitle: "",
                                         modules: [], modulesError: nil)
}
