import Testing
@testable import JogsModule

@Suite("Distance field: kilometres")
struct DistanceParserTests {
    @Test("accepts kilometres with up to three decimals and gives whole metres", arguments: [
        ("5", 5000), ("5.2", 5200), ("5,25", 5250), ("10.125", 10_125), (".5", 500), ("5.", 5000),
        ("0.001", 1), ("1000", 1_000_000), ("042.195", 42_195), (" 7 km", 7000), ("21.1KM", 21_100),
    ])
    func accepted(text: String, metres: Int) {
        #expect(DistanceParser.parse(text) == .success(metres))
    }

    @Test("refuses bad distances, saying what was wrong and what to type", arguments: [
        ("", "Enter the distance in kilometres, e.g. 5.2."),
        ("km", "Enter the distance in kilometres, e.g. 5.2."),
        ("abc", "'abc' is not a distance: type kilometres as a number, e.g. 5 or 5.25."),
        ("5.2.1", "'5.2.1' is not a distance: type kilometres as a number, e.g. 5 or 5.25."),
        ("1e3", "'1e3' is not a distance: type kilometres as a number, e.g. 5 or 5.25."),
        (".", "'.' is not a distance: type kilometres as a number, e.g. 5 or 5.25."),
        ("0", "'0' km: the distance must be more than 0 km."),
        ("0.000", "'0.000' km: the distance must be more than 0 km."),
        ("-5", "'-5' km: the distance must be more than 0 km."),
        ("5.2555", "'5.2555' has more than 3 decimals: distances are kept to the metre, e.g. 5.255."),
        ("1000.001", "'1000.001' km is more than the 1000 km a jog can be; check the distance."),
        ("5000", "'5000' km is more than the 1000 km a jog can be; check the distance."),
        ("123456789012345678901234567890", "'123456789012345678901234567890' km is more than the 1000 km a jog can be; check the distance."),
    ])
    func refused(text: String, message: String) {
        #expect(DistanceParser.parse(text).failureMessage == message)
    }
}
