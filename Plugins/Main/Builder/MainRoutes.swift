/// The routes Main serves.
enum MainRoutes {
    static let main = "main"
    /// Deep link: opens Main with these values, e.g. `convert/12.5/usd/EUR`.
    static let convert = "convert/<double:amount>/<string:from>/<string:to>"
}
