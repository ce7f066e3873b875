/// The routes Jogs serves (Manifest/module.json's, through the generated `JogsManifest.Routes`),
/// and the routes it links to. Every one needs a logged-in user (`requiresLogin` in module.json);
/// literals win over `<int:id>`, so `jogs/new` and `jogs/report` never reach the detail builder.
enum JogsRoutes {
    /// The list; takes the date filter as a query, `jogs?from=2026-01-01&to=2026-01-31`.
    static let list = JogsManifest.Routes.jogs
    static let new = JogsManifest.Routes.jogsNew
    static let report = JogsManifest.Routes.jogsReport
    /// One jog: detail, edit and delete.
    static let detail = JogsManifest.Routes.jogsId

    /// The list with the filter `range`, at `page` (the first page leaves `page` out).
    static func list(_ range: DayRange, page: Int) -> String {
        let query = [range.from.map { "from=\($0)" }, range.to.map { "to=\($0)" }, page > 1 ? "page=\(page)" : nil].compactMap { $0 }
        return query.isEmpty ? list : list + "?" + query.joined(separator: "&")
    }

    static func report(page: Int) -> String {
        page > 1 ? "\(report)?page=\(page)" : report
    }

    static func jog(_ id: Int) -> String {
        "jogs/\(id)"
    }

    /// The login screen, asked to come back to `next` (the host's own guard uses the same form,
    /// `login?next=<route>` with the route percent-encoded).
    static func login(next: String) -> String {
        "login?next=" + percentEncoded(next)
    }

    /// Every byte outside `A-Z a-z 0-9 - . _ ~` as `%XX`, so `/`, `?`, `&` and `=` of the
    /// route survive inside a query value.
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
