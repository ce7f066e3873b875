import DenSupport
import Foundation
import Testing

@Suite("Host threads")
struct HostThreadSpec {
    /// What the kernel calls the thread that runs `body`'s check, read from /proc.
    private func nameSeenInside(_ name: String) throws -> String? {
        let seen = Box()
        let done = DispatchSemaphore(value: 0)
        try HostThread.start(name: name) {
            seen.value = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
            done.signal()
        }
        _ = done.wait(timeout: .now() + 10)
        return seen.value?.trimmingCharacters(in: .newlines)
    }

    private final class Box: @unchecked Sendable { var value: String? }

    @Test("the body runs on a thread of its own, named as asked")
    func named() throws {
        #expect(try nameSeenInside("den about") == "den about")
    }

    @Test("a long name keeps its first 15 bytes, never half a character")
    func longName() throws {
        #expect(try nameSeenInside("den ééééééééé") == "den ééééé", "4 + 5 × 2 bytes; a sixth é would need 16")
        #expect(try nameSeenInside("den a-very-long-module-id") == "den a-very-long")
    }

    @Test("a thread the system will not start is an error saying why and what to do; the body is released unrun")
    func outOfThreads() {
        final class Witness: Sendable {}
        weak var witness: Witness?
        let ran = Box()
        do {
            let captured = Witness()
            witness = captured
            try HostThread.start(name: "den refused", creating: { _, _, _ in EAGAIN }) {
                _ = captured
                ran.value = "ran"
            }
            Issue.record("no error")
        } catch {
            #expect(error == HostThread.StartFailure(code: EAGAIN))
            #expect(error.description.contains("Resource temporarily unavailable") && error.description.contains("ulimit -u"),
                    "\(error)")
        }
        #expect(witness == nil, "the body (and what it holds) was released")
        #expect(ran.value == nil)
    }

    @Test("sleep waits at least as long as asked")
    func sleeps() {
        let start = ContinuousClock.now
        HostThread.sleep(for: .milliseconds(30))
        #expect(ContinuousClock.now - start >= .milliseconds(30))
    }
}
