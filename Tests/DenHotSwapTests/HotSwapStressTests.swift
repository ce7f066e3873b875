@testable import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

@Suite("Hot swap under load: many swaps, calls racing swaps")
struct HotSwapStressTests {
    @Test("200 swaps in a row: no crash, state kept every time, memory grows by the retained images only")
    func twoHundredSwaps() throws {
        let app = try SwapTestApp()
        let session = app.runtime.makeSession()
        session.open("swap/1")
        // Resident memory at the end of each batch of 45 swaps after a warm-up of 20. The tests
        // of other suites run in the same process meanwhile and only add to it, so the batch that
        // grew least is the swaps' own cost.
        var checkpoints: [Int64] = []
        for round in 1...200 {
            let version = round % 2 == 0 ? 1 : 2
            let report = try app.swap(to: ["-DSWAP_VERSION=\(version)"])
            #expect(report.outcome == .swapped, "swap \(round): \(report)")
            #expect(session.current?.count == 1, "swap \(round) lost the state")
            if round >= 20, (round - 20) % 45 == 0 { checkpoints.append(residentBytes()) }
        }
        #expect(session.current?.text.contains("swap v1") == true)
        let record = try #require(app.record)
        #expect(record.generation == 201)
        #expect(record.retainedImages == 200)
        let perSwap = zip(checkpoints, checkpoints.dropFirst()).map { ($1 - $0) / 45 }.min() ?? 0
        #expect(checkpoints.count == 5)
        let imageSize = Int64((try? FileManager.default.attributesOfItem(atPath: app.file.path)[.size] as? Int) ?? 0)
        // A retained C image maps its file (~16 KB) plus a little loader bookkeeping; a leak of
        // instances, sessions or route tables per swap would be far above this.
        #expect(perSwap < imageSize + 256 * 1024, "each swap kept \(perSwap) bytes (image \(imageSize))")
    }

    @Test("calls racing swaps: every reply comes whole from one version, never half-swapped")
    func callsRacingSwaps() async throws {
        let app = try SwapTestApp()
        let sessions = (0..<4).map { _ in app.runtime.makeSession() }
        for session in sessions { session.open("swap") }
        try await withThrowingTaskGroup(of: [String].self) { group in
            for session in sessions {
                group.addTask {
                    var problems: [String] = []
                    var last = session.current?.count ?? 0
                    for _ in 0..<60 {
                        let view = session.add()
                        // The reply's version is the one that added: v1 adds 1, v2 adds 2.
                        let version = view.text.contains("swap v2") ? 2 : 1
                        guard let count = view.count else { problems.append("no count: \(view.text)"); continue }
                        if count - last != version { problems.append("\(last) → \(count) under v\(version)") }
                        last = count
                    }
                    return problems
                }
            }
            group.addTask {
                for round in 0..<20 { try app.swap(to: ["-DSWAP_VERSION=\(round % 2 == 0 ? 2 : 1)"]) }
                return []
            }
            for try await problems in group { #expect(problems.isEmpty, "\(problems)") }
        }
        #expect(app.record?.generation == 21)
    }

    private func residentBytes() -> Int64 {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = Int64(text.split(separator: " ")[1]) ?? 0
        return pages * Int64(sysconf(Int32(_SC_PAGESIZE)))
    }
}
