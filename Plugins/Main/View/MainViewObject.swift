/// Everything the view shows, already formatted by the presenter: strings only, no entities.
struct MainViewObject: Equatable, Sendable {
    /// The ids of the screen's fields and buttons (also the keys of an action's `fields`).
    enum FieldID {
        static let from = "from"
        static let to = "to"
        static let amount = "amount"
    }

    enum ActionID {
        static let convert = "convert"
        static let swap = "swap"
        static let reload = "reload"
        static let info = "info"
    }

    struct Choice: Equatable, Sendable {
        var id: String
        var label: String
        var selected: String
        var options: [String]
    }

    struct AmountField: Equatable, Sendable {
        var id: String
        var label: String
        var text: String
        var placeholder: String
        /// Why the last input was refused, and what is allowed.
        var error: String?
    }

    struct Notice: Equatable, Sendable {
        enum Kind: Equatable, Sendable { case info, success, warning, error }
        var kind: Kind
        var text: String
    }

    struct Action: Equatable, Sendable {
        var id: String
        var label: String
        var isPrimary: Bool
    }

    var title: String
    var heading: String
    var notices: [Notice]
    var from: Choice
    var to: Choice
    var amount: AmountField
    /// "100 USD = 89.08 EUR"
    var result: String
    /// "1 USD = 0.8909 EUR · ECB 2026-10-02"
    var rateLine: String
    /// "Rates: bundled ECB snapshot (offline)"
    var sourceLine: String
    var actions: [Action]

    /// Before the presenter's first push: the converter's title and fields, nothing in them.
    static let blank = MainViewObject(
        title: "Currency converter", heading: "Convert currencies", notices: [],
        from: Choice(id: FieldID.from, label: "From", selected: "", options: []),
        to: Choice(id: FieldID.to, label: "To", selected: "", options: []),
        amount: AmountField(id: FieldID.amount, label: "Amount", text: "", placeholder: "0", error: nil),
        result: "", rateLine: "", sourceLine: "", actions: [])
}
