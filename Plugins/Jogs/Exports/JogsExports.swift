import DenKit
import Foundation

/// What Jogs offers other modules (ABI revision 2): the weekly totals of the user logged in in
/// the *calling UI session*, and nobody else's. A module's screen calling `exports.call` during
/// its builder or `handle` call shares that session; a call outside a session (`den call`, a
/// thread a module started) is refused, since it has no logged-in user.
struct JogsExports {
    let dependencies: JogsDependencies

    /// `weekly_totals() -> string`: JSON, newest week first:
    /// `{"user": "ada", "weeks": [{"week": "2026-W47", "from": "2026-11-16", "to": "2026-11-22",
    /// "jogs": 2, "distance_m": 15000, "duration_s": 5400, "pace_s_per_km": 360}], "unreadable": 0}`.
    func weeklyTotals() throws(ExportFailure) -> String {
        do {
            guard try dependencies.session.loggedInUser() != nil else {
                throw ExportFailure.notFound("nobody is logged in in this session, and it answers only for the logged-in user: log in first")
            }
        } catch let failure as ExportFailure {
            throw failure
        } catch let error as HostServiceError where error.status == 1 {
            throw ExportFailure.invalidArgument("it answers only for the user logged in in the calling UI session, and this call has none (den call, or a call outside a screen's builder or handle): call it from a module's screen in den run or den serve")
        } catch {
            throw ExportFailure.service("jogs.weekly_totals could not tell who is logged in: \(error)")
        }
        let interactor = JogsInteractor(repository: StorageJogRepository(dependencies.store, log: dependencies.log),
                                        users: SessionCurrentUser(session: dependencies.session),
                                        clock: dependencies.clock, log: dependencies.log)
        let report: JogReport
        do {
            report = try interactor.weeklyReport()
        } catch {
            switch error {
            case .notLoggedIn: throw .notFound("nobody is logged in in this session: log in first")
            case .unavailable(let message): throw .service(message)
            case .notFound, .invalid: throw ExportFailure(status: 7, "jogs.weekly_totals: unexpected \(error)")
            }
        }
        let document = WeeklyTotalsDocument(user: report.user, unreadable: report.unreadable, weeks: report.weeks.map { week in
            WeeklyTotalsDocument.Week(week: week.week.description, from: week.week.monday?.description ?? "",
                                      to: week.week.sunday?.description ?? "", jogs: week.totals.count,
                                      distanceMetres: week.totals.distanceMetres, durationSeconds: week.totals.durationSeconds,
                                      paceSecondsPerKm: week.totals.paceSecondsPerKm)
        })
        do {
            return String(decoding: try WireFormat.encode(document), as: UTF8.self)
        } catch {
            throw ExportFailure(status: 7, "jogs.weekly_totals could not encode its answer: \(error)")
        }
    }
}

/// The JSON `weekly_totals` returns (docs/modules/jogs.md, "Exports").
struct WeeklyTotalsDocument: Codable, Equatable {
    struct Week: Codable, Equatable {
        var week: String
        var from: String
        var to: String
        var jogs: Int
        var distanceMetres: Int
        var durationSeconds: Int
        var paceSecondsPerKm: Int

        enum CodingKeys: String, CodingKey {
            case week, from, to, jogs, distanceMetres = "distance_m", durationSeconds = "duration_s", paceSecondsPerKm = "pace_s_per_km"
        }
    }

    var user: String
    var unreadable: Int
    var weeks: [Week]
}

/// The exports Manifest/module.json declares (`JogsExporting`, generated), on the host's services.
extension JogsExports {
    static func weeklyTotals(host: HostServices) throws -> String {
        try JogsExports(dependencies: .host(host)).weeklyTotals()
    }
}
