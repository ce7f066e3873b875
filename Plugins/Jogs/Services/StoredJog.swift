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

    /// The record as JSONEncoder writes it with sorted keys. A day is digits and dashes, so the
    /// text is written directly: a list page reads 50 of these, and JSONEncoder's and
    /// JSONDecoder's set-up per record cost more than the rest of the page's module code.
    func encoded() throws -> String {
        guard date.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        }
        return #"{"date":"\#(date)","distance_m":\#(distanceMetres),"duration_s":\#(durationSeconds),"id":\#(id),"v":\#(v)}"#
    }

    /// The jog in `text`, stored under id `expectedID`; throws saying why it cannot be used.
    static func decode(_ text: String, expectedID: Int) throws(StoredJogError) -> Jog {
        let stored: StoredJog
        if let plain = PlainRecord.read(text) {
            stored = plain
        } else {
            do {
                stored = try JSONDecoder().decode(StoredJog.self, from: Data(text.utf8))
            } catch {
                throw StoredJogError("not a jog record (\(error))")
            }
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

/// Reads exactly the form `StoredJog.encoded()` writes; anything else (spaces, other key orders,
/// escapes, extra keys, a number JSON would write otherwise) is nil and left to JSONDecoder,
/// which then accepts or refuses it in its own words.
private struct PlainRecord {
    private let bytes: [UInt8]
    private var at = 0

    private init(_ text: String) { bytes = Array(text.utf8) }

    static func read(_ text: String) -> StoredJog? {
        var reader = PlainRecord(text)
        guard reader.take(#"{"date":""#), let date = reader.day(), reader.take(#"","distance_m":"#), let distance = reader.integer(),
              reader.take(#","duration_s":"#), let duration = reader.integer(), reader.take(#","id":"#), let id = reader.integer(),
              reader.take(#","v":"#), let v = reader.integer(), reader.take("}"), reader.at == reader.bytes.count else { return nil }
        return StoredJog(v: v, id: id, date: date, distanceMetres: distance, durationSeconds: duration)
    }

    private mutating func take(_ literal: String) -> Bool {
        let expected = literal.utf8
        guard bytes.count - at >= expected.count, bytes[at..<at + expected.count].elementsEqual(expected) else { return false }
        at += expected.count
        return true
    }

    /// Digits and dashes up to the closing quote; `Day` checks the rest.
    private mutating func day() -> String? {
        let start = at
        while at < bytes.count, bytes[at] == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
        return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    /// `-?(0|[1-9][0-9]*)`, at most 18 digits (never overflows).
    private mutating func integer() -> Int? {
        let negative = at < bytes.count && bytes[at] == UInt8(ascii: "-")
        if negative { at += 1 }
        let start = at
        var value = 0
        while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]), at - start < 18 {
            value = value * 10 + Int(bytes[at] - UInt8(ascii: "0"))
            at += 1
        }
        let digits = at - start
        guard digits > 0, digits < 18, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { return nil }
        return negative ? -value : value
    }
}

extension StoredJog {
    fileprivate init(v: Int, id: Int, date: String, distanceMetres: Int, durationSeconds: Int) {
        self.v = v
        self.id = id
        self.date = date
        self.distanceMetres = distanceMetres
        self.durationSeconds = durationSeconds
    }
}
