import DenHost
import Testing

@Suite("traceparent: only a well-formed W3C header is read")
struct TraceParentHeaderSpec {
    @Test("version 00 with both ids, and a later version's extra fields", arguments: [
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00",
        "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-what-comes-later",
    ])
    func wellFormed(header: String) {
        #expect(TraceParentHeader.isWellFormed(header))
    }

    @Test("anything else", arguments: [
        "", "00-zzzz-b7ad6b7169203331-01",
        "00-00000000000000000000000000000000-b7ad6b7169203331-01", // a zero trace id
        "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01", // a zero span id
        "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01", // upper case
        "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", // version ff
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra", // version 00 has no more fields
        "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01x",
        "00_0af7651916cd43dd8448eb211c80319c_b7ad6b7169203331_01",
        String(repeating: "9", count: 4000),
    ])
    func malformed(header: String) {
        #expect(!TraceParentHeader.isWellFormed(header))
    }
}
