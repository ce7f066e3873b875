/// One page of a long list (the jogs, the report's weeks): which items it shows. Pages count
/// from 1; a page past either end shows the nearest one.
struct JogPage: Equatable, Sendable {
    /// Jogs on one page of the list, and weeks on one page of the report.
    static let listSize = 50
    static let reportSize = 52

    var number: Int
    var count: Int
    /// The items of this page, as indices into the whole list.
    var items: Range<Int>
    var total: Int

    init(requested: Int, total: Int, size: Int) {
        self.total = total
        count = max(1, (total + size - 1) / size)
        number = min(max(1, requested), count)
        let start = (number - 1) * size
        items = start..<min(total, start + size)
    }

    /// The page a link asks for: `?page=<n>`; anything else is the first page.
    static func number(from text: String?) -> Int {
        text.flatMap { Int($0) } ?? 1
    }

    /// "Jogs 51–100 of 20000 · page 2 of 400"; nil when everything fits on one page.
    func caption(_ noun: String) -> String? {
        count > 1 ? "\(noun) \(items.lowerBound + 1)–\(items.upperBound) of \(total) · page \(number) of \(count)" : nil
    }
}
