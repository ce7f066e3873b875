import Foundation

/// A jog as it is stored: versioned JSON, `{"v":1,"id":42,"date":"2026-01-05","distance_m":5250,"duration_s":1830}`.
/// Reading checks the same bounds as the form, so a damaged or hand-edited record is reported
/// as unreadable rather than shown with absurd figures.
struct StoredJog: Codable, Equatable {
    static let version = 1

    var v: Int
    var id: Int
    var date: String
    var distanceMetres: Int
    var durationSeconds: Int

    private enum CodingKeys: String, CodingKey {
        case v, id, date
        case distanceMetres = "distance_m"
        case durationSeconds = "duration_s"
    }

    init(_ jog: Jog) {
        v = Self.version
        id = jog.id
        date = jog.date.description
        distanceMetres = jog.distanceMetres
        durationSeconds = jog.durationSeconds
    }

    func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The jog in `text`, stored under id `expectedID`; throws saying why it cannot be used.
    static func decode(_ text: String, expectedID: Int) throws(StoredJogError) -> Jog {
        let stored: StoredJog
        do {
            stored = try JSONDecoder().decode(StoredJog.self, from: Data(text.utf8))
        } catch {
            throw StoredJogError("not a jog record (\(error))")
        }
        guard stored.v <= version else { throw StoredJogError("written by a newer Jogs (record version \(stored.v))") }
        guard stored.id == expectedID else { throw StoredJogError("its id \(stored.id) does not match its key") }
        guard let day = Day(stored.date) else { throw StoredJogError("its date '\(stored.date)' is not YYYY-MM-DD") }
        guard (1...JogLimits.maxDistanceMetres).contains(stored.distanceMetres),
              (1...JogLimits.maxDurationSeconds).contains(stored.durationSeconds) else {
            throw StoredJogError("its distance or duration is out of bounds")
        }
        return Jog(id: stored.id, date: day, distanceMetres: stored.distanceMetres, durationSeconds: stored.durationSeconds)
    }
}

struct StoredJogError: Error, CustomStringConvertible, Equatable {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
