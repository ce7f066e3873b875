/// A JSON document read by `JSONReader`, for the wire documents that have a hand-written form
/// (`WireDocument`). Codable's first use of each type costs the Swift runtime a scan of every
/// protocol conformance in the process; reading through this type costs none, which is most of
/// what a `den render` spends on JSON (docs/START_PATH.md, "Wire documents without Codable").
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number written as a whole number that fits in `Int`.
    case integer(Int)
    /// Any other number, as written (a fraction, an exponent, or too large for `Int`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A JSON object's members in document order. A key may repeat; lookups find its first value,
/// as JSONDecoder keeps the first (`WireDocumentEquivalenceSpec` holds the two to that).
package struct JSONObject: Sendable, Equatable {
    package struct Member: Sendable, Equatable {
        package var key: String
        package var value: JSONValue
    }

    /// One array, not one of keys and one of values: an object read costs one allocation fewer
    /// (About's page reads two objects per installed module).
    package var members: [Member]

    package init(members: [Member] = []) {
        self.members = members
    }

    package init(keys: [String], values: [JSONValue]) {
        members = zip(keys, values).map { Member(key: $0, value: $1) }
    }

    package var keys: [String] { members.map(\.key) }

    package subscript(key: String) -> JSONValue? {
        // Lengths first: a wire document's keys mostly differ in length, and comparing two
        // Strings that differ costs more than comparing their byte counts.
        let length = key.utf8.count
        for member in members where member.key.utf8.count == length && member.key == key { return member.value }
        return nil
    }
}

/// The document is not in the plain form a hand-written reader takes (a missing key, a value
/// of another type, a null): the caller hands it to JSONDecoder, which accepts or refuses it
/// with its own words. A miss is never shown to anyone.
package struct JSONMiss: Error {
    package init() {}
}

// Typed reads that miss on anything unexpected. "optional" reads give nil for an absent key,
// as `decodeIfPresent` does; a null misses, so JSONDecoder decides what it means.
extension JSONValue {
    package func object() throws(JSONMiss) -> JSONObject {
        guard case .object(let object) = self else { throw JSONMiss() }
        return object
    }

    package func array() throws(JSONMiss) -> [JSONValue] {
        guard case .array(let array) = self else { throw JSONMiss() }
        return array
    }

    package func string() throws(JSONMiss) -> String {
        guard case .string(let string) = self else { throw JSONMiss() }
        return string
    }

    package func int() throws(JSONMiss) -> Int {
        guard case .integer(let value) = self else { throw JSONMiss() }
        return value
    }

    /// Any JSON number.
    package func double() throws(JSONMiss) -> Double {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let text): guard let value = Double(text) else { throw JSONMiss() }; return value
        default: throw JSONMiss()
        }
    }

    package func bool() throws(JSONMiss) -> Bool {
        guard case .bool(let value) = self else { throw JSONMiss() }
        return value
    }

    package func strings() throws(JSONMiss) -> [String] {
        var result: [String] = []
        let array = try array()
        result.reserveCapacity(array.count)
        for element in array { result.append(try element.string()) }
        return result
    }

    package func stringDictionary() throws(JSONMiss) -> [String: String] {
        let object = try object()
        var result: [String: String] = Dictionary(minimumCapacity: object.members.count)
        for member in object.members where result[member.key] == nil { result[member.key] = try member.value.string() }
        return result
    }
}

extension JSONObject {
    package func required(_ key: String) throws(JSONMiss) -> JSONValue {
        guard let value = self[key] else { throw JSONMiss() }
        return value
    }

    package func string(_ key: String) throws(JSONMiss) -> String { try required(key).string() }
    package func int(_ key: String) throws(JSONMiss) -> Int { try required(key).int() }
    package func array(_ key: String) throws(JSONMiss) -> [JSONValue] { try required(key).array() }
    package func strings(_ key: String) throws(JSONMiss) -> [String] { try required(key).strings() }

    package func optionalString(_ key: String) throws(JSONMiss) -> String? { try self[key]?.string() }
    package func optionalInt(_ key: String) throws(JSONMiss) -> Int? { try self[key]?.int() }
    package func optionalBool(_ key: String) throws(JSONMiss) -> Bool? { try self[key]?.bool() }
    package func optionalArray(_ key: String) throws(JSONMiss) -> [JSONValue]? { try self[key]?.array() }
    package func optionalStrings(_ key: String) throws(JSONMiss) -> [String]? { try self[key]?.strings() }
    package func optionalStringDictionary(_ key: String) throws(JSONMiss) -> [String: String]? {
        try self[key]?.stringDictionary()
    }
}
