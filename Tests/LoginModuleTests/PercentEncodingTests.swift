import DenKit
import Foundation
import Testing
@testable import LoginModule

@Suite("Login's percent-encoding, without Foundation: the same answers as Foundation's")
struct PercentEncodingTests {
    static let samples = ["", "login", "jogs/42", "a%2Fb", "%2e%2E", "%zz", "%", "%4", "%41%42", "caf%C3%A9", "%C3", "%FF%FE",
                          "x%00y", "100%25", "%2e%2e/secret", "é", "👩‍💻", "a b?c=d&e", "~-._", "%e2%80%ae"]

    @Test("decoding: the same text, or nil where Foundation gives nil (a malformed escape, bytes that are not UTF-8)",
          arguments: samples)
    func decodes(text: String) {
        #expect(PercentDecoding.decode(text) == text.removingPercentEncoding)
    }

    @Test("encoding a carried route: everything but A-Z a-z 0-9 - . _ ~ escaped, as Foundation escapes it", arguments: samples)
    func encodes(text: String) {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        #expect(LoginRoutes.encode(text) == text.addingPercentEncoding(withAllowedCharacters: unreserved))
        #expect(PercentDecoding.decode(LoginRoutes.encode(text)) == text, "decoding undoes encoding")
    }
}
