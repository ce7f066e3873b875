import Foundation

/// The isolated round trip's physical baseline: the same bytes an isolated "count" event moves
/// (den → worker, worker → den; read from the worker's /proc/PID/io), sent back and forth over
/// a bare AF_UNIX stream socketpair between this process and a child, with blocking reads and
/// writes and nothing else. The two ends are pinned to two different cores, so each direction is
/// a wake-up of the other core: what any cross-process call costs here (DESIGN §13). Left to the
/// scheduler, both ends often share one core and a round trip costs a fraction of that, which
/// is no baseline for a worker that den cannot keep on its own core.
struct SocketPairBench {
    var requestBytes: Int
    var replyBytes: Int
    var roundTrips: Int

    /// The child's side, `den-bench --echo-peer REQUEST REPLY` with the socket as fd 3: reads a
    /// request, writes a reply, until the socket closes.
    static func echoPeer(request: Int, reply: Int) -> Never {
        var inbound = [UInt8](repeating: 0, count: max(request, 1))
        let outbound = [UInt8](repeating: 0x61, count: max(reply, 1))
        while request > 0, reply > 0, readFully(3, &inbound, request), writeFully(3, outbound, reply) {}
        exit(0)
    }

    func run() throws -> Samples {
        guard requestBytes > 0, replyBytes > 0 else { throw BenchError("no bytes to send") }
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw BenchError("socketpair: errno \(errno)")
        }
        defer { close(fds[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 3) // dup2 clears CLOEXEC on fd 3
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let argv = [executable, "--echo-peer", String(requestBytes), String(replyBytes)]
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, &cArguments, environ)
        close(fds[1])
        guard status == 0 else { throw BenchError("posix_spawn: \(status)") }
        let restore = try Self.pinAcrossCores(child: pid)
        defer {
            Self.setAffinity(restore)
            shutdown(fds[0], Int32(SHUT_RDWR))
            var child: Int32 = 0
            waitpid(pid, &child, 0)
        }
        let request = [UInt8](repeating: 0x62, count: max(requestBytes, 1))
        var reply = [UInt8](repeating: 0, count: max(replyBytes, 1))
        var samples = Samples()
        for round in 0..<(roundTrips + 50) {
            let start = nowNanoseconds()
            guard Self.writeFully(fds[0], request, requestBytes), Self.readFully(fds[0], &reply, replyBytes) else {
                throw BenchError("the echo peer went away")
            }
            let elapsed = nowNanoseconds() - start
            if round >= 50 { samples.add(elapsed) }
        }
        return samples
    }

    /// glibc's `sched_getaffinity`/`sched_setaffinity` (declared only under _GNU_SOURCE, so not
    /// imported into Swift): pid, mask size, mask. A mask is `cpu_set_t`'s 1,024 bits.
    private typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
    private static let maskBytes = 128

    private static func affinity(_ name: String) throws -> Affinity {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { throw BenchError("\(name) not found") }
        return unsafeBitCast(symbol, to: Affinity.self)
    }

    /// Pins this thread to the first core it may run on and `child` to another; returns this
    /// thread's mask before, to put back with `setAffinity`.
    static func pinAcrossCores(child: pid_t) throws -> [UInt8] {
        var before = [UInt8](repeating: 0, count: maskBytes)
        guard try affinity("sched_getaffinity")(0, maskBytes, &before) == 0 else { throw BenchError("sched_getaffinity: errno \(errno)") }
        let cores = (0..<(maskBytes * 8)).filter { before[$0 / 8] & UInt8(1 << ($0 % 8)) != 0 }
        guard cores.count >= 2 else { throw BenchError("one core only: a cross-core baseline needs two") }
        func only(_ core: Int) -> [UInt8] {
            var mask = [UInt8](repeating: 0, count: maskBytes)
            mask[core / 8] = UInt8(1 << (core % 8))
            return mask
        }
        var mine = only(cores[0]), theirs = only(cores[1])
        let set = try affinity("sched_setaffinity")
        guard set(0, maskBytes, &mine) == 0, set(child, maskBytes, &theirs) == 0 else {
            throw BenchError("sched_setaffinity: errno \(errno)")
        }
        return before
    }

    static func setAffinity(_ mask: [UInt8]) {
        var mask = mask
        _ = try? affinity("sched_setaffinity")(0, maskBytes, &mask)
    }

    static func readFully(_ fd: Int32, _ buffer: inout [UInt8], _ count: Int) -> Bool {
        var done = 0
        while done < count {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, count - done) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return false }
            done += got
        }
        return true
    }

    static func writeFully(_ fd: Int32, _ buffer: [UInt8], _ count: Int) -> Bool {
        var done = 0
        while done < count {
            let put = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + done, count - done) }
            if put < 0, errno == EINTR { continue }
            guard put > 0 else { return false }
            done += put
        }
        return true
    }
}
