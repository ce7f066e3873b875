@testable import DenKit
import Foundation
import Testing

@Suite("JSONReader and JSONWriter")
struct JSONReaderWriterSpec {
    private func parse(_ text: String) -> JSONValue? { JSONReader.parse(Array(text.utf8)) }

    @Test("values of every kind, in document order")
    func values() {
        #expect(parse(#" {"b": [true, false, null], "a": -12, "c": "x", "d": 1.5e3} "#)
                == .object(JSONObject(keys: ["b", "a", "c", "d"],
                                      values: [.array([.bool(true), .bool(false), .null]), .integer(-12), .string("x"), .number("1.5e3")])))
        #expect(parse("[]") == .array([]))
        #expect(parse("{}") == .object(JSONObject()))
        #expect(parse(#""top""#) == .string("top"))
    }

    @Test("objects and arrays nested in each other keep their own members, however they interleave")
    func nesting() {
        let object = { (keys: [String], values: [JSONValue]) in JSONValue.object(JSONObject(keys: keys, values: values)) }
        #expect(parse(#"[1, {"a": 2, "b": [3, {"c": 4}, []], "e": {}}, "x", {"d": {"f": [{}]}}, [[5], 6]]"#)
                == .array([
                    .integer(1),
                    object(["a", "b", "e"], [.integer(2), .array([.integer(3), object(["c"], [.integer(4)]), .array([])]), object([], [])]),
                    .string("x"),
                    object(["d"], [object(["f"], [.array([object([], [])])])]),
                    .array([.array([.integer(5)]), .integer(6)]),
                ]))
        // A document refused halfway leaves nothing behind for the next one.
        #expect(parse(#"[1, {"a": [2, {"b": }]}]"#) == nil)
        #expect(parse(#"{"k": [1, 2], "l": {"m": 3}}"#)
                == object(["k", "l"], [.array([.integer(1), .integer(2)]), object(["m"], [.integer(3)])]))
    }

    @Test("an object gets room for its previous sibling's members, never more than a few before it has any")
    func objectRoom() throws {
        // A large object, then a nest: each level opens before any closes, so room sized by the
        // last object read would give every level room for two hundred members.
        let large = "{" + (0..<200).map { "\"k\($0)\": \($0)" }.joined(separator: ",") + "}"
        let parsed = try #require(parse("[" + large + #", {"a": {"b": {"c": {"d": 1}}}}, {"x": 1}, {"y": 2}]"#))
        guard case .array(let items) = parsed, items.count == 4 else { Issue.record("not the array"); return }
        var object = try items[1].object()
        for key in ["a", "b", "c"] {
            #expect(object.members.capacity <= 2 * JSONReader.objectRoom, "\(key): \(object.members.capacity)")
            object = try #require(object[key]).object()
        }
        #expect(try items[0].object().members.count == 200)
        #expect(try items[3].object()["y"] == .integer(2))
    }

    @Test("whole numbers that fit are integers; the rest keep their text")
    func numbers() {
        #expect(parse("9223372036854775807") == .integer(Int.max))
        #expect(parse("-9223372036854775808") == .integer(Int.min))
        #expect(parse("9223372036854775808") == .number("9223372036854775808"))
        #expect(parse("-0") == .integer(0))
        #expect(parse("0.5") == .number("0.5"))
        #expect(parse("1E-2") == .number("1E-2"))
        for bad in ["01", "-", "1.", ".5", "1e", "+1", "0x10", "1e+"] { #expect(parse(bad) == nil, "\(bad)") }
    }

    @Test("escapes decode, surrogate pairs join, and lone surrogates are refused")
    func strings() {
        #expect(parse(#""\" \\ \/ \b \f \n \r \t""#) == .string("\" \\ / \u{08} \u{0C} \n \r \t"))
        #expect(parse(#""\u00e9\u00E9 \ud83d\ude00""#) == .string("éé 😀"))
        #expect(parse("\"é😀\"") == .string("é😀"))
        for bad in [#""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#, #""\x""#, #""\u12""#, "\"a\u{1}\"", #""open"#] {
            #expect(parse(bad) == nil, "\(bad)")
        }
        #expect(JSONReader.parse([0x22, 0xC3, 0x28, 0x22]) == nil, "invalid UTF-8")
        #expect(JSONReader.parse([0x22, 0x5C, 0x6E, 0xFF, 0x22]) == nil, "invalid UTF-8 after an escape")
    }

    @Test("a repeated key is kept, and a lookup finds its first value, as JSONDecoder's does")
    func repeatedKeys() throws {
        let value = try #require(parse(#"{"a":1,"b":2,"a":"x"}"#))
        #expect(try value.object().keys == ["a", "b", "a"])
        #expect(try value.object()["a"] == .integer(1))
        #expect(try parse(#"{"a":"1","a":"2"}"#)?.stringDictionary() == ["a": "1"])
    }

    @Test("trailing text and bad literals are refused")
    func refusals() {
        for bad in [#"{"a":1} {}"#, "tru", "nul", "[1,]", #"{"a":1,}"#, #"{a:1}"#, "", " ", "[1 2]"] {
            #expect(parse(bad) == nil, "\(bad)")
        }
    }

    @Test("nesting deeper than the limit is left to JSONDecoder, without exhausting the stack")
    func depth() {
        let limit = JSONReader.maximumDepth
        #expect(parse(String(repeating: "[", count: limit) + String(repeating: "]", count: limit)) != nil)
        #expect(parse(String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)) == nil)
        #expect(parse(String(repeating: "[", count: 100_000)) == nil)
    }

    @Test("a document over the size limit is left to JSONDecoder, which still reads it")
    func size() throws {
        let title = String(repeating: "x", count: JSONReader.maximumBytes)
        let json = Array(#"{"v":1,"title":"\#(title)","elements":[]}"#.utf8)
        #expect(JSONReader.parse(json) == nil)
        #expect(JSONReader.parse(Array(#"{"v":1,"title":"x","elements":[]}"#.utf8)) != nil)
        #expect(try WireFormat.decode(Screen.self, from: Data(json)).title == title)
    }

    @Test("strings are escaped exactly as JSONEncoder escapes them")
    func escaping() throws {
        var every = ""
        for byte in 0..<0x80 { every.unicodeScalars.append(Unicode.Scalar(UInt8(byte))) }
        every += "é😀\u{2028}\u{FEFF}"
        var writer = JSONWriter()
        writer.strings([every])
        #expect(writer.bytes == (try WireDocumentEquivalenceSpec.codableBytes([every])))
    }

    @Test("dictionary keys are sorted as JSONEncoder sorts them: by UTF-8 bytes")
    func keyOrder() throws {
        let dictionary = ["b": "1", "a": "2", "field10": "x", "field9": "y", "B": "z", "_x": "u", "a_b": "1", "aB": "2", "ab": "3", "é": "4", "": "e"]
        var writer = JSONWriter()
        writer.stringDictionary(dictionary)
        #expect(writer.bytes == (try WireDocumentEquivalenceSpec.codableBytes(dictionary)))
    }

    @Test("commas go between members and elements at every level")
    func separators() {
        var writer = JSONWriter()
        writer.beginArray()
        writer.beginObject()
        writer.member("a", 1)
        writer.key("b")
        writer.beginArray()
        writer.bool(true)
        writer.beginObject()
        writer.endObject()
        writer.endArray()
        writer.member("c", "d")
        writer.endObject()
        writer.int(-5)
        writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"[{"a":1,"b":[true,{}],"c":"d"},-5]"#)
    }

    @Test("the reader says whether a document holds a null, at any depth, and not for a string that spells it",
          arguments: [(#"{"a":null}"#, true), (#"[[1,[null]]]"#, true), ("null", true), (#"{"a":"null","nullish":1}"#, false),
                      (#"{"a":[]}"#, false)])
    func sawNull(document: String, holdsNull: Bool) throws {
        var sawNull = !holdsNull // the reader must set it either way
        let value = JSONReader.parse(Data(document.utf8), sawNull: &sawNull)
        #expect(value != nil)
        #expect(sawNull == holdsNull)
    }
}
