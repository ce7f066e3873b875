import DenSupport
import Foundation
import Testing

@Suite("ThreadSignal: the semaphore module calls wait on")
struct ThreadSignalSpec {
    @Test("a signal given before the wait lets the wait through at once")
    func signalFirst() {
        let signal = ThreadSignal()
        signal.signal()
        #expect(signal.wait(upTo: .seconds(10)))
    }

    @Test("signals count: two signals let two waits through, and a third waits in vain")
    func counting() {
        let signal = ThreadSignal()
        signal.signal()
        signal.signal()
        #expect(signal.wait(upTo: .seconds(10)))
        #expect(signal.wait(upTo: .seconds(10)))
        #expect(!signal.wait(upTo: .milliseconds(20)))
    }

    @Test("a wait with no signal gives up after at least the time asked, and not much later")
    func timesOut() {
        let signal = ThreadSignal()
        let start = ContinuousClock.now
        #expect(!signal.wait(upTo: .milliseconds(60)))
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(60))
        #expect(waited < .seconds(5), "\(waited)")
    }

    @Test("a wait of no time, or of less, only takes a signal already given; a very long one still returns on a signal")
    func boundedWaits() {
        let signal = ThreadSignal()
        let start = ContinuousClock.now
        #expect(!signal.wait(upTo: .zero))
        #expect(!signal.wait(upTo: .milliseconds(-500)))
        #expect(!signal.wait(upTo: .nanoseconds(-1)))
        #expect(ContinuousClock.now - start < .seconds(5), "no wait spins or sleeps")
        signal.signal()
        #expect(signal.wait(upTo: .milliseconds(-500)))
        signal.signal()
        #expect(signal.wait(upTo: .seconds(Int64.max)))
    }

    @Test("a signal from another thread wakes a thread waiting without a limit")
    func wakesWaiter() throws {
        let signal = ThreadSignal()
        let woken = ThreadSignal()
        try HostThread.start(name: "den test waiter") {
            signal.wait()
            woken.signal()
        }
        HostThread.sleep(for: .milliseconds(20))
        signal.signal()
        #expect(woken.wait(upTo: .seconds(10)))
    }
}
