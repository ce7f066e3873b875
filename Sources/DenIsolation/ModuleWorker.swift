import DenHost
import CDenABI
import CDenProcess
import DenKit
import DenSupport
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// How a worker process ended, in words for messages and `den plugins`.
package struct WorkerEnd: Sendable, Equatable {
    package var signal: Int32
    package var exitStatus: Int32
    /// What the host saw first, when it, not the process, ended the conversation.
    package var cause: String?

    /// "was killed by SIGSEGV", "exited with status 70".
    package var description: String {
        let how = signal != 0 ? "ended by \(Self.signalName(signal))" : "exited with status \(exitStatus)"
        return cause.map { "\($0); the worker \(how)" } ?? "its worker \(how)"
    }

    package static func signalName(_ number: Int32) -> String {
        let names: [Int32: String] = [SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGKILL: "SIGKILL", SIGBUS: "SIGBUS",
                                      SIGILL: "SIGILL", SIGFPE: "SIGFPE", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP",
                                      SIGSYS: "SIGSYS", SIGPIPE: "SIGPIPE", SIGXCPU: "SIGXCPU"]
        return names[number] ?? "signal \(number)"
    }
}

/// Why a request to a worker got no answer. The worker is ended (if it was not already) before
/// this is reported: a worker whose conversation broke never serves again.
package struct WorkerFault: Error, Sendable {
    package var message: String
}

/// One worker process on the host's side: its pid, pidfd and socket. Requests are serialised by
/// a recursive lock, so a request nested inside another on the same thread (a module's service
/// call that calls one of its own exports) goes through while other threads wait their turn.
package final class ModuleWorker: @unchecked Sendable {
    package let pid: pid_t
    package let pidfd: Int32
    package let channel: FrameChannel
    package let sandbox: [String]
    package let startedAt: ContinuousClock.Instant
    private let callLock = RecursiveLock()
    private let endState = Mutex<WorkerEnd?>(nil)
    /// Set once `onEnd` has counted the end: only then does a waiting call hear of it.
    private let endReported = Mutex(false)
    private let ended = ThreadSignal()
    private let killCause = Mutex<String?>(nil)

    private init(pid: pid_t, pidfd: Int32, channel: FrameChannel, sandbox: [String], startedAt: ContinuousClock.Instant) {
        self.pid = pid
        self.pidfd = pidfd
        self.channel = channel
        self.sandbox = sandbox
        self.startedAt = startedAt
    }

    /// How the worker ended, once it has (and the host reaped it).
    package var end: WorkerEnd? { endState.withLock { $0 } }

    /// What a worker needs to start: where `den` is, the module copy, the sandbox and memory limit.
    package struct Launch: Sendable {
        var executable: String
        var modulePath: String
        var sandbox: Bool
        var memoryLimit: UInt64
        var readable: [String]
    }

    /// Starts a worker and reads its hello frame; `onEnd` hears (on the worker's watch thread)
    /// how it ended, within milliseconds of its end (pidfd).
    package static func start(_ launch: Launch, deadline: ContinuousClock.Instant,
                      onEnd: @escaping @Sendable (ModuleWorker, WorkerEnd) -> Void) throws(WorkerFault) -> ModuleWorker {
        let startedAt = ContinuousClock.now
        var fds: [Int32] = [-1, -1]
        let paired = fds.withUnsafeMutableBufferPointer { den_socket_pair($0.baseAddress) }
        guard paired == 0 else { throw WorkerFault(message: "could not create its socket (\(String(cString: strerror(-paired))))") }
        var arguments = [launch.executable, WorkerProtocol.command, "--fd", "3", "--memory-limit", String(launch.memoryLimit)]
        if launch.sandbox { arguments.append("--sandbox") }
        for path in launch.readable { arguments += ["--readable", path] }
        arguments.append(launch.modulePath)
        var pointers = arguments.map { strdup($0) }
        pointers.append(nil)
        let pid = den_spawn_worker(launch.executable, pointers, fds[1])
        pointers.forEach { free($0) }
        close(fds[1])
        guard pid > 0 else {
            close(fds[0])
            throw WorkerFault(message: "could not start its worker \(launch.executable) (\(String(cString: strerror(-pid))))")
        }
        let pidfd = den_pidfd_open(pid)
        guard pidfd >= 0 else {
            den_kill_worker(pid)
            var signal: Int32 = 0, status: Int32 = 0
            _ = den_reap(pid, &signal, &status, 1)
            close(fds[0])
            throw WorkerFault(message: "could not watch its worker (pidfd_open: \(String(cString: strerror(-pidfd))))")
        }
        let channel = FrameChannel(fd: fds[0], watch: pidfd)
        let hello: WorkerHello
        do {
            let frame = try channel.receive(deadline: deadline)
            guard frame.kind == .hello else { throw ChannelFailure.malformed("its first frame was \(frame.kind), not hello") }
            guard frame.ref == WorkerProtocol.version else {
                throw ChannelFailure.malformed("it speaks worker protocol \(frame.ref); this host speaks \(WorkerProtocol.version) (den and its worker must be the same build)")
            }
            do { hello = try JSONDecoder().decode(WorkerHello.self, from: frame.body) } catch { throw ChannelFailure.malformed("its hello was not readable") }
        } catch {
            den_kill_worker(pid)
            var signal: Int32 = 0, status: Int32 = 0
            _ = den_reap(pid, &signal, &status, 1)
            close(pidfd)
            close(fds[0])
            throw WorkerFault(message: "its worker did not start: \(Self.describe(error as? ChannelFailure ?? .io(0)))")
        }
        let worker = ModuleWorker(pid: pid, pidfd: pidfd, channel: channel, sandbox: hello.sandbox, startedAt: startedAt)
        worker.watch(onEnd)
        if let error = hello.error {
            worker.kill(because: "its worker refused to start")
            _ = worker.waitForEnd(upTo: .seconds(2))
            throw WorkerFault(message: "its worker refused to start: \(error)")
        }
        if launch.sandbox, !hello.sandbox.contains(SandboxLayer.seccomp) || !hello.sandbox.contains(SandboxLayer.noNewPrivs) {
            // Never silently unsandboxed: a worker that says less than it was asked is not used.
            worker.kill(because: "its worker reported an incomplete sandbox")
            throw WorkerFault(message: "its worker was asked for a sandbox but reported only [\(hello.sandbox.joined(separator: ", "))]; it was not used")
        }
        return worker
    }

    /// One thread per worker sleeps on the pidfd and reaps the process the moment it ends.
    private func watch(_ onEnd: @escaping @Sendable (ModuleWorker, WorkerEnd) -> Void) {
        let pid = pid, pidfd = pidfd
        do {
            try HostThread.start(name: "den worker \(pid)") { [self] in
                var events: Int16 = 0, unused: Int16 = 0
                while den_poll2(pidfd, Int16(POLLIN), &events, -1, 0, &unused, -1) == -EINTR {}
                var signal: Int32 = 0, status: Int32 = 0
                _ = den_reap(pid, &signal, &status, 1)
                // Anything it forked goes with it (its own process group).
                den_kill_worker(pid)
                let end = WorkerEnd(signal: signal, exitStatus: status, cause: killCause.withLock { $0 })
                endState.withLock { $0 = end }
                // The crash is counted (and a loop quarantined) before a waiting call hears of the
                // end, so that call's own restart never starts a worker the count has not seen.
                onEnd(self, end)
                reportEnd()
            }
        } catch {
            // Without a watch thread the worker is still reaped on its next failed request.
        }
    }

    /// Ends the worker (and what it forked); `cause` is what the host saw.
    package func kill(because cause: String) {
        killCause.withLock { if $0 == nil { $0 = cause } }
        den_kill_worker(pid)
    }

    /// True once the end is counted (`reportEnd`): until then a reaped worker is not replaced.
    package var endIsReported: Bool { endReported.withLock { $0 } }

    /// Lets waiting calls hear of the end. `onEnd` calls it once it has counted the end (before
    /// it starts the next worker, which a call past its limit must not wait for); the watch
    /// thread calls it again after `onEnd`, which then does nothing.
    package func reportEnd() {
        let first = endReported.withLock { reported in
            defer { reported = true }
            return !reported
        }
        if first { ended.signal() }
    }

    /// Waits until the watch thread has reaped the worker and counted its end; its end, or nil
    /// after `duration`.
    package func waitForEnd(upTo duration: Duration) -> WorkerEnd? {
        let until = ContinuousClock.now + duration
        while true {
            if endReported.withLock({ $0 }), let end {
                ended.signal() // the next waiter's turn
                return end
            }
            let left = until - .now
            if left <= .zero { return nil }
            _ = ended.wait(upTo: left)
        }
    }

    /// Sends one request and waits for its reply, answering the worker's service calls (on this
    /// thread, so they belong to the caller's UI session) meanwhile. A `handled` answer comes
    /// back as a `reply` with its body the reply document; its snapshot goes to `state` (with the
    /// snapshot's status).
    package func request(_ frame: Frame, deadline: ContinuousClock.Instant, serve: (Frame) -> Frame,
                 state: (Int32, Data) -> Void = { _, _ in }) throws(WorkerFault) -> Frame {
        // Bounded: two isolated modules calling each other's exports from two sessions at once
        // would otherwise wait for each other's lock for ever.
        guard callLock.lock(before: deadline) else {
            throw WorkerFault(message: "its worker stayed busy with other calls until the call limit")
        }
        defer { callLock.unlock() }
        if let end { throw WorkerFault(message: end.description) }
        // The worker learns which trace the call belongs to (docs/OBSERVABILITY.md, "Traces").
        var frame = frame
        if frame.trace.isEmpty, let span = CallTrace.span { frame.trace = span.traceparent }
        do {
            try channel.send(frame, deadline: deadline)
            while true {
                let incoming = try channel.receive(deadline: deadline)
                switch incoming.kind {
                case .reply: return incoming
                case .handled where frame.kind == .handle:
                    guard let parts = HandledBody.split(incoming.body) else {
                        throw ChannelFailure.malformed("a handled frame whose reply runs past its end")
                    }
                    state(incoming.status, parts.state)
                    return Frame(.reply, status: Int32(DEN_OK.rawValue), ref: incoming.ref, body: parts.reply)
                case .service: try channel.send(serve(incoming), deadline: deadline)
                default: throw ChannelFailure.malformed("it sent a \(incoming.kind) frame in the middle of a call")
                }
            }
        } catch {
            let failure = error as? ChannelFailure ?? .io(0)
            // A worker that ended, or closed its socket, ended its own way: its signal or exit
            // status says how. One that broke the protocol or ran past the limit is ended here.
            let endedItself = failure == .closed || failure == .peerEnded
            if !endedItself { kill(because: Self.describe(failure)) }
            if waitForEnd(upTo: endedItself ? .seconds(1) : .seconds(2)) == nil, self.end == nil, endedItself {
                kill(because: Self.describe(failure)) // closed its socket yet stays alive
            }
            // Ample under load: it returns as soon as the end is counted.
            guard let end = waitForEnd(upTo: .seconds(10)) else { throw WorkerFault(message: Self.describe(failure)) }
            if endedItself, end.signal == 0, end.cause == nil {
                throw WorkerFault(message: "\(Self.describe(failure)); \(end.description)")
            }
            throw WorkerFault(message: end.description)
        }
    }

    /// Sends a frame that has no reply (`destroy`); a broken socket is noticed by the next request.
    package func post(_ frame: Frame) {
        // A destroy never waits long behind another session's call: at worst the instance is
        // left in the worker until it ends.
        guard callLock.lock(before: .now + .seconds(1)) else { return }
        defer { callLock.unlock() }
        guard end == nil else { return }
        try? channel.send(frame, deadline: .now + .seconds(1))
    }

    /// Closes the socket: the worker exits by itself (used when a hot swap replaced the module).
    package func retire() {
        callLock.lock()
        defer { callLock.unlock() }
        kill(because: "den retired it")
    }

    package static func describe(_ failure: ChannelFailure) -> String {
        switch failure {
        case .closed: "it closed its socket"
        case .peerEnded: "it ended"
        case .timedOut: "it did not answer within the call limit"
        case .malformed(let what): "it sent bytes that are not a worker frame (\(what))"
        case .io(let code): "its socket failed (\(String(cString: strerror(code))))"
        }
    }
}

/// A pthread mutex that the thread holding it may take again (nested requests, see `ModuleWorker`).
package final class RecursiveLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Takes the lock unless `deadline` passes first; false then.
    package func lock(before deadline: ContinuousClock.Instant) -> Bool {
        let left = deadline - .now
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let (seconds, attoseconds) = max(left, .zero).components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var wholeSeconds = Int(now.tv_sec) + Int(seconds)
        if nanoseconds >= 1_000_000_000 { nanoseconds -= 1_000_000_000; wholeSeconds += 1 }
        var until = timespec(tv_sec: wholeSeconds, tv_nsec: nanoseconds)
        return pthread_mutex_timedlock(mutex, &until) == 0
    }
}
