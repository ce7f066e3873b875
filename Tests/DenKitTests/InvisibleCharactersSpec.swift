import DenKit
import Testing

@Suite("InvisibleCharacters: what both front-ends replace so that text cannot hide or reorder itself")
struct InvisibleCharactersSpec {
    @Test("every scalar: hidden exactly when it is a format character (not the ZWJ) or a line or paragraph separator")
    func matchesTheUnicodeTables() {
        var mismatches: [String] = []
        for value in 0...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = (scalar.properties.generalCategory == .format && value != 0x200D) || value == 0x2028 || value == 0x2029
            if InvisibleCharacters.hides(scalar) != expected { mismatches.append("U+" + String(value, radix: 16)) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
    }
}
