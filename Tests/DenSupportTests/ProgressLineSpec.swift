import DenSupport
import Testing

@Suite("A progress line: drawn in place on a terminal, nothing when piped")
struct ProgressLineSpec {
    final class Written: @unchecked Sendable {
        var text = ""
    }

    final class Clock: @unchecked Sendable {
        var now = ContinuousClock.now
    }

    @Test("on a terminal: a bar with the count, redrawn in place, at most ten times a second, cleared at the end")
    func drawsOnATerminal() {
        let written = Written()
        let clock = Clock()
        let line = ProgressLine(enabled: true, width: 60, clock: { clock.now }) { written.text += $0 }
        line.update("Copying", done: 0, total: 200, unit: "entries")
        #expect(written.text == "\r\u{1B}[2KCopying [                    ] 0/200 entries")
        line.update("Copying", done: 50, total: 200, unit: "entries")
        #expect(!written.text.contains("50/200"), "within a tenth of a second of the last: not drawn")
        clock.now += .milliseconds(150)
        line.update("Copying", done: 100, total: 200, unit: "entries")
        #expect(written.text.hasSuffix("\r\u{1B}[2KCopying [##########          ] 100/200 entries"))
        line.update("Checking 3 of 9 modules")
        #expect(written.text.hasSuffix("Checking 3 of 9 modules"), "a phase change is drawn at once")
        line.finish()
        #expect(written.text.hasSuffix("\r\u{1B}[2K"))
        #expect(written.text.split(separator: "\r").allSatisfy { $0.count <= 60 + 4 })
    }

    @Test("piped: nothing is written at all, whatever is updated")
    func quietWhenPiped() {
        let written = Written()
        let line = ProgressLine(enabled: false, width: 80) { written.text += $0 }
        line.update("Copying", done: 1, total: 2, unit: "entries")
        line.update("Checking")
        line.finish()
        #expect(written.text.isEmpty)
    }
}
