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

    @Test("byte counts in binary units, rounded down so a total shows only once it is reached")
    func byteCounts() {
        #expect(ProgressLine.byteCount(0) == "0 B")
        #expect(ProgressLine.byteCount(1023) == "1023 B")
        #expect(ProgressLine.byteCount(1024) == "1.0 KiB")
        #expect(ProgressLine.byteCount(1_468_006) == "1.3 MiB") // 1.39999 MiB
        #expect(ProgressLine.byteCount(3_250_585) == "3.0 MiB") // 3.0999 MiB
        #expect(ProgressLine.byteCount(3_250_586) == "3.1 MiB")
        #expect(ProgressLine.byteCount(5 << 30 + 1 << 29) == "5.5 GiB")
    }

    @Test("bytes of one file; of several, the file count and the whole plan; a bar only where it fits")
    func transferText() {
        let one = ProgressLine.transferText("fetching jogsstats 1.2.0", bytes: 1_468_007, of: 3_250_587, overall: nil, width: 44)
        #expect(one == "fetching jogsstats 1.2.0  1.4 MiB of 3.1 MiB")
        let wide = ProgressLine.transferText("fetching jogsstats 1.2.0", bytes: 1_468_007, of: 3_250_587, overall: nil, width: 79)
        #expect(wide == "fetching jogsstats 1.2.0  1.4 MiB of 3.1 MiB [#########           ]")
        let several = ProgressLine.Overall(file: 2, files: 3, bytes: 5 << 20, size: 10 << 20)
        let plan = ProgressLine.transferText("fetching main 1.0.0", bytes: 1 << 20, of: 2 << 20, overall: several, width: 100)
        #expect(plan == "fetching main 1.0.0  1.0 MiB of 2.0 MiB · file 2 of 3, 5.0 MiB of 10.0 MiB [##########          ]",
                "the bar is the whole plan's")
        let narrow = ProgressLine.transferText("fetching main 1.0.0", bytes: 1 << 20, of: 2 << 20, overall: several, width: 79)
        #expect(narrow == "fetching main 1.0.0  1.0 MiB of 2.0 MiB · file 2 of 3, 5.0 MiB of 10.0 MiB")
    }

    @Test("bytes on a terminal: at most ten drawings a second, but a file's last count drawn at once")
    func drawsBytes() {
        let written = Written()
        let clock = Clock()
        let line = ProgressLine(enabled: true, width: 40, clock: { clock.now }) { written.text += $0 }
        line.update("fetching main 1.0.0", bytes: 0, of: 3 << 20)
        #expect(written.text == "\r\u{1B}[2Kfetching main 1.0.0  0 B of 3.0 MiB")
        line.update("fetching main 1.0.0", bytes: 1 << 20, of: 3 << 20)
        #expect(!written.text.contains("1.0 MiB of"), "within a tenth of a second of the last: not drawn")
        clock.now += .milliseconds(120)
        line.update("fetching main 1.0.0", bytes: 2 << 20, of: 3 << 20)
        #expect(written.text.hasSuffix("\r\u{1B}[2Kfetching main 1.0.0  2.0 MiB of 3.0 MiB"))
        line.update("fetching main 1.0.0", bytes: 3 << 20, of: 3 << 20)
        #expect(written.text.hasSuffix("\r\u{1B}[2Kfetching main 1.0.0  3.0 MiB of 3.0 MiB"), "the whole file: drawn at once")
        line.update("fetching about 1.0.0", bytes: 0, of: 1 << 20)
        #expect(written.text.hasSuffix("fetching about 1.0.0  0 B of 1.0 MiB"), "the next file: drawn at once")
        #expect(written.text.split(separator: "\r").allSatisfy { $0.count <= 40 + 3 })
    }

    @Test("piped: nothing is written at all, whatever is updated")
    func quietWhenPiped() {
        let written = Written()
        let line = ProgressLine(enabled: false, width: 80) { written.text += $0 }
        line.update("Copying", done: 1, total: 2, unit: "entries")
        line.update("Checking")
        line.update("fetching main 1.0.0", bytes: 1, of: 1)
        line.finish()
        #expect(written.text.isEmpty)
    }
}
