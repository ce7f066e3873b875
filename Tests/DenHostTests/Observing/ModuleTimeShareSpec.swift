import DenHost
import DenTestSupport
import Testing

@Suite("The busiest module: the one that took most of den's module time over the last full minute")
struct ModuleTimeShareSpec {
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    @Test("a module with more than half of a busy minute is named, with its share and times, once the minute is over")
    func blamesMostOfTheMinute() throws {
        let share = ModuleTimeShare(now: start)
        share.record("jogs", took: .seconds(3), at: at(10))
        share.record("main", took: .seconds(1), at: at(20))
        #expect(share.blame(at: at(59)) == nil, "the minute is not over yet")
        let blame = try #require(share.blame(at: at(61)))
        #expect(blame.moduleID == "jogs")
        #expect(blame.share == 0.75)
        #expect(blame.text == "took 75% of den's module time over the last minute (3.0 s of 4.0 s)")
    }

    @Test("no module is named when none took more than half, when the minute was nearly idle, or when it ended long ago")
    func blamesNobodyOtherwise() {
        let even = ModuleTimeShare(now: start)
        even.record("jogs", took: .seconds(2), at: at(5))
        even.record("main", took: .seconds(2), at: at(6))
        #expect(even.blame(at: at(61)) == nil, "half is not most")

        let idle = ModuleTimeShare(now: start)
        idle.record("jogs", took: .milliseconds(900), at: at(5))
        #expect(idle.blame(at: at(61)) == nil, "under a second of module time in the minute blames nobody")

        let old = ModuleTimeShare(now: start)
        old.record("jogs", took: .seconds(30), at: at(5))
        #expect(old.blame(at: at(125)) == nil, "the last full minute saw no calls")
    }

    @Test("each minute is judged on its own: the next minute's calls replace the last one's blame")
    func minutesRoll() {
        let share = ModuleTimeShare(now: start)
        share.record("jogs", took: .seconds(5), at: at(10))
        share.record("main", took: .seconds(5), at: at(70)) // rolls: jogs is the last minute's
        #expect(share.blame(at: at(71))?.moduleID == "jogs")
        #expect(share.blame(at: at(121))?.moduleID == "main")
    }
}

@Suite("Slow module calls are logged as warnings naming the module, the route pattern and the time")
struct SlowCallWarningSpec {
    @Test("a call past the threshold is a warning; one under it, and one the host gave up on, say nothing")
    func warns() {
        let log = CapturedLog()
        let warning = SlowCallWarning(threshold: .milliseconds(500), logger: log.logger)
        let call = ModuleCall(moduleID: "jogs", what: "handle(action 'save')", kind: .handle, pattern: "jogs/<int:id>")
        warning.moduleCallEnded(call, took: .milliseconds(499), result: .returned(status: 0))
        warning.moduleCallEnded(call, took: .seconds(40), result: .gaveUp)
        #expect(log.lines.isEmpty, "\(log.lines.map(\.message))")
        warning.moduleCallEnded(call, took: .milliseconds(812), result: .returned(status: 0))
        #expect(log.lines.map(\.message) == ["slow module call: module 'jogs': handle(action 'save') took 812 ms (route jogs/<int:id>; over --slow-call-ms 500)"])
        #expect(log.lines.first?.level == .warning)
        let export = ModuleCall(moduleID: "main", what: "export convert", kind: .export, pattern: "main.convert")
        warning.moduleCallEnded(export, took: .seconds(1), result: .returned(status: 7))
        #expect(log.lines.last?.message.contains("(export main.convert; over --slow-call-ms 500)") == true)
    }
}
