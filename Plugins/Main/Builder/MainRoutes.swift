/// The routes Main serves.
enum MainRoutes {
    static let main = "main"
    /// Deep link: opens Main with these values, e.g. `convert/12.5/usd/EUR`. The amount is a
    /// string, not a `<double>`: the link follows the amount field's own rules (`AmountInput`),
    /// so ".5", "5." and "1,5" open like they do in the field, "00" and "007" are refused with
    /// Main's message, and no spelling the field refuses ("1e3", "-5") gets in through the router.
    static let convert = "convert/<string:amount>/<string:from>/<string:to>"
}
