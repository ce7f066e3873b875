import DenKit
import Testing
import Foundation
@testable import JogsModule

func day(_ text: String) -> Day {
    guard let day = Day(text) else { fatalError("'\(text)' is not a day") }
    return day
}

/// "Today" in every test, unless a test says otherwise.
let fixedToday = day("2026-03-15")

struct FixedClock: JogsClock {
    var day: Day = fixedToday
    func today() -> Day { day }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func jog(_ id: Int, _ date: String, metres: Int, seconds: Int) -> Jog {
    Jog(id: id, date: day(date), distanceMetres: metres, durationSeconds: seconds)
}

func context(_ route: String, pattern: String, parameters: [String: String] = [:],
             query: [String: String] = [:]) -> BuildContext {
    BuildContext(route: route, pattern: pattern, parameters: parameters, query: query, host: .unavailable)
}

/// The destination the registered builder of `pattern` asks for with these parameters (as the
/// generated registration passes `jogs/<int:id>`'s id: typed, with its spelling).
func destination(_ pattern: String, _ parameters: [String: String] = [:]) -> JogsBuilder.Destination {
    switch pattern {
    case JogsRoutes.new: return .new
    case JogsRoutes.report: return .report
    case JogsRoutes.detail:
        let text = parameters["id"] ?? ""
        guard let id = Int(text) else {
            Issue.record("'\(text)' is no <int:id> the router would pass")
            return .detail(id: 0, text: text)
        }
        return .detail(id: id, text: text)
    default: return .list
    }
}

/// A store and a session with `user` logged in (nil: nobody), as a stack's dependencies.
func dependencies(_ store: InMemoryKeyValueStore = InMemoryKeyValueStore(), user: String? = "alice",
                  today: Day = fixedToday) -> JogsDependencies {
    let session = InMemorySessionValues(user.map { [SessionLimits.userKey: $0] } ?? [:])
    return JogsDependencies(store: store, session: session, clock: FixedClock(day: today))
}

extension Screen {
    func field(_ id: String) -> Field? { fields.first { $0.id == id } }

    var texts: [String] {
        elements.compactMap { if case .text(let text, _) = $0 { text } else { nil } }
    }

    var banners: [Banner] {
        elements.compactMap { if case .banner(let banner) = $0 { banner } else { nil } }
    }

    var buttons: [Button] {
        elements.compactMap { if case .button(let button) = $0 { button } else { nil } }
    }

    var links: [Link] {
        elements.compactMap { if case .link(let link) = $0 { link } else { nil } }
    }

    var listItems: [ItemList.Item] {
        elements.flatMap { element -> [ItemList.Item] in if case .list(let list) = element { list.items } else { [] } }
    }

    var tables: [Table] {
        elements.compactMap { if case .table(let table) = $0 { table } else { nil } }
    }

    /// Every string on the screen, to check that something is nowhere on it.
    var allText: String {
        var parts = [title]
        for element in elements {
            switch element {
            case .heading(let text), .text(let text, _): parts.append(text)
            case .field(let field): parts += [field.label, field.value, field.error ?? "", field.placeholder ?? ""]
            case .button(let button): parts.append(button.label)
            case .link(let link): parts += [link.label, link.route]
            case .list(let list): parts += list.items.flatMap { [$0.title, $0.detail ?? "", $0.route ?? ""] } + [list.emptyText ?? ""]
            case .table(let table): parts += table.columns + table.rows.flatMap { $0 }
            case .banner(let banner): parts.append(banner.text)
            case .unsupported: break
            }
        }
        return parts.joined(separator: "\n")
    }
}
