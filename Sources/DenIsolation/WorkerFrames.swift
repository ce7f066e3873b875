import DenHost
import CDenProcess
import DenSupport
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The host–worker protocol (docs/ISOLATION.md, "Protocol"): length-prefixed frames over one
/// AF_UNIX stream socket, each carrying one of the C ABI's own documents as its body.
package enum WorkerProtocol {
    /// Sent by the worker in its hello frame; a host refuses any other.
    package static let version: UInt64 = 3
    /// The largest snapshot a `handled` frame carries (a larger one is sent as "keeps none").
    package static let maxStateBytes = WireLimits.maxReplyBytes
    /// The largest frame either side accepts: a reply document (4 MiB) and a snapshot (4 MiB),
    /// with room for the header.
    package static let maxFrameBytes = WireLimits.maxReplyBytes + maxStateBytes + 64 * 1024
    /// The hidden command that turns `den` into a worker: `den worker --fd 3 [options] <copy>`.
    package static let command = "worker"
}

/// What a frame is. Requests go both ways (a module's service call is a request from the worker);
/// each is answered by exactly one `reply`, after any requests nested inside it.
package enum FrameKind: UInt8, Sendable {
    /// worker → host, first: `ref` the protocol version, body `WorkerHello`.
    case hello = 1
    /// worker → host, after the entry point: `status` its result, body `WorkerRegistration`.
    case registered = 2
    /// host → worker: `ref` the route's index, body the builder's parameters; reply `ref` the instance.
    case build = 10
    /// host → worker: `ref` the instance, body the event; answered by `handled` when the instance
    /// answered DEN_OK and has a snapshot function, else by `reply`.
    case handle = 11
    case snapshot = 12
    case restore = 13
    /// host → worker, unanswered: `ref` the instance to destroy.
    case destroy = 14
    /// host → worker: `name` the export's function, body `ExportCallRequest`; reply `ExportCallAnswer`.
    case export = 15
    /// worker → host: `name` the service operation, body its request (`den_host.call`).
    case service = 30
    /// Either way: the answer to the innermost open request: `status`, and the body.
    case reply = 40
    /// worker → host: the answer to a `handle` the instance answered with DEN_OK, carrying the
    /// instance's snapshot after it, kept by the host to restore the screen after a crash (one
    /// frame, so an event costs one message each way). `status` is the snapshot's (DEN_OK, or
    /// DEN_ERR_UNSUPPORTED: it keeps none); body `HandledBody`.
    case handled = 41
}

/// The body of a `handled` frame: u32 (little-endian) the reply document's length, the reply
/// document, then the snapshot.
package enum HandledBody {
    package static func make(reply: Data, state: Data) -> Data {
        var body = Data(capacity: 4 + reply.count + state.count)
        withUnsafeBytes(of: UInt32(reply.count).littleEndian) { body.append(contentsOf: $0) }
        body.append(reply)
        body.append(state)
        return body
    }

    /// The reply document and the snapshot, or nil when the length runs past the body.
    package static func split(_ body: Data) -> (reply: Data, state: Data)? {
        guard body.count >= 4 else { return nil }
        let start = body.startIndex
        let length = body.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }
        guard length <= body.count - 4 else { return nil }
        return (body.subdata(in: start + 4 ..< start + 4 + length), body.subdata(in: start + 4 + length ..< body.endIndex))
    }
}

package struct Frame: Sendable {
    package var kind: FrameKind
    package var status: Int32 = 0
    package var ref: UInt64 = 0
    package var name: String = ""
    /// The W3C `traceparent` of the call a host request is for, when den traces (empty
    /// otherwise): the worker names it if the module's code kills the worker.
    package var trace: String = ""
    package var body: Data = Data()

    package init(_ kind: FrameKind, status: Int32 = 0, ref: UInt64 = 0, name: String = "", trace: String = "", body: Data = Data()) {
        self.kind = kind
        self.status = status
        self.ref = ref
        self.name = name
        self.trace = trace
        self.body = body
    }

    /// kind (1) + status (4) + ref (8) + name length (2) + trace length (1), after the 4-byte length.
    package static let headerBytes = 16
}

/// Why a frame could not be sent or received.
package enum ChannelFailure: Error, Sendable, Equatable {
    /// The other side closed its end (it exited, or closed the socket).
    case closed
    /// The worker process ended (its pidfd became readable).
    case peerEnded
    /// No frame arrived before the deadline.
    case timedOut
    /// The bytes were not a frame of this protocol: what was wrong.
    case malformed(String)
    case io(Int32)
}

/// One end of the socket. Not thread-safe: its owner serialises use (`ModuleWorker`'s call lock;
/// the worker's single serving thread).
package final class FrameChannel: @unchecked Sendable {
    package let fd: Int32
    /// The worker's pidfd on the host's side (-1 in the worker): a death wakes every wait.
    package let watch: Int32

    /// Every frame's bytes sent and received so far, length prefix included (what `den plugins`
    /// and the isolation benchmark read; `send`/`recv` show in no /proc counter).
    private let sentBytes = Atomic<Int>(0)
    private let receivedBytes = Atomic<Int>(0)

    package init(fd: Int32, watch: Int32 = -1) {
        self.fd = fd
        self.watch = watch
    }

    package var traffic: (sent: Int, received: Int) {
        (sentBytes.load(ordering: .relaxed), receivedBytes.load(ordering: .relaxed))
    }

    package func send(_ frame: Frame, deadline: ContinuousClock.Instant? = nil) throws(ChannelFailure) {
        let name = Array(frame.name.utf8.prefix(Int(UInt16.max)))
        let trace = Array(frame.trace.utf8.prefix(Int(UInt8.max)))
        let length = Frame.headerBytes + name.count + trace.count + frame.body.count
        var bytes = [UInt8]()
        bytes.reserveCapacity(4 + length)
        func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        put(UInt32(length))
        bytes.append(frame.kind.rawValue)
        put(frame.status)
        put(frame.ref)
        put(UInt16(name.count))
        bytes.append(UInt8(trace.count))
        bytes.append(contentsOf: name)
        bytes.append(contentsOf: trace)
        bytes.append(contentsOf: frame.body)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent > 0 { offset += sent; continue }
            let error = errno
            if sent < 0, error == EINTR { continue }
            if sent < 0, error == EAGAIN || error == EWOULDBLOCK {
                try wait(for: Int16(POLLOUT), deadline: deadline)
                continue
            }
            throw error == EPIPE || error == ECONNRESET ? .closed : .io(error)
        }
        sentBytes.add(bytes.count, ordering: .relaxed)
    }

    package func receive(deadline: ContinuousClock.Instant? = nil) throws(ChannelFailure) -> Frame {
        var lengthBytes = [UInt8](repeating: 0, count: 4)
        try read(into: &lengthBytes, deadline: deadline)
        let length = Int(UInt32(littleEndian: lengthBytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }))
        guard length >= Frame.headerBytes, length <= WorkerProtocol.maxFrameBytes else {
            throw .malformed("a frame of \(length) bytes (frames are \(Frame.headerBytes) to \(WorkerProtocol.maxFrameBytes) bytes)")
        }
        var bytes = [UInt8](repeating: 0, count: length)
        try read(into: &bytes, deadline: deadline)
        receivedBytes.add(4 + length, ordering: .relaxed)
        guard let kind = FrameKind(rawValue: bytes[0]) else { throw .malformed("a frame of unknown kind \(bytes[0])") }
        let (status, ref, nameLength) = bytes.withUnsafeBytes { raw in
            (Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 1, as: Int32.self)),
             UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 5, as: UInt64.self)),
             Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 13, as: UInt16.self))))
        }
        let traceLength = Int(bytes[15])
        let bodyStart = Frame.headerBytes + nameLength + traceLength
        guard bodyStart <= length else { throw .malformed("a frame whose name and trace run past its end") }
        let nameBytes = bytes[Frame.headerBytes ..< Frame.headerBytes + nameLength]
        guard let name = String(validating: nameBytes, as: UTF8.self) else { throw .malformed("a frame whose name is not UTF-8") }
        let traceBytes = bytes[Frame.headerBytes + nameLength ..< bodyStart]
        guard traceBytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), let trace = String(validating: traceBytes, as: UTF8.self) else {
            throw .malformed("a frame whose trace is not printable ASCII")
        }
        return Frame(kind, status: status, ref: ref, name: name, trace: trace, body: Data(bytes[bodyStart...]))
    }

    /// Bytes received but not yet used: one `recv` takes all that has arrived (a frame's length
    /// and body, often the next frame too), so a frame usually costs one system call.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private static let scratchBytes = 64 * 1024
    private let scratch = UnsafeMutableRawPointer.allocate(byteCount: FrameChannel.scratchBytes, alignment: 16)

    deinit { scratch.deallocate() }

    private func read(into buffer: inout [UInt8], deadline: ContinuousClock.Instant?) throws(ChannelFailure) {
        var offset = 0
        let count = buffer.count
        while offset < count {
            let available = pending.count - pendingStart
            if available > 0 {
                let taken = min(available, count - offset)
                buffer.withUnsafeMutableBufferPointer { target in
                    pending.withUnsafeBufferPointer { source in
                        _ = UnsafeMutableBufferPointer(rebasing: target[offset ..< offset + taken])
                            .initialize(from: source[pendingStart ..< pendingStart + taken])
                    }
                }
                offset += taken
                pendingStart += taken
                if pendingStart == pending.count { pending.removeAll(keepingCapacity: true); pendingStart = 0 }
                continue
            }
            let got: Int
            // The worker's end (no process to watch, no deadline) sleeps in `recv` itself: one
            // system call a frame instead of recv, poll, recv.
            let flags = watch < 0 && deadline == nil ? Int32(0) : Int32(MSG_DONTWAIT)
            if count - offset >= Self.scratchBytes {
                // A large body goes straight where it belongs.
                got = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress! + offset, count - offset, flags) }
                if got > 0 { offset += got; continue }
            } else {
                got = Glibc.recv(fd, scratch, Self.scratchBytes, flags)
                if got > 0 { pending.append(contentsOf: UnsafeRawBufferPointer(start: scratch, count: got)); continue }
            }
            if got == 0 { throw .closed }
            let error = errno
            if error == EINTR { continue }
            guard error == EAGAIN || error == EWOULDBLOCK else { throw error == ECONNRESET ? .closed : .io(error) }
            try wait(for: Int16(POLLIN), deadline: deadline)
        }
    }

    /// Sleeps until the socket is ready for `events`, the worker ends or the deadline passes.
    private func wait(for events: Int16, deadline: ContinuousClock.Instant?) throws(ChannelFailure) {
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let left = deadline - .now
                if left <= .zero { throw .timedOut }
                let (seconds, attoseconds) = left.components
                timeout = Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            }
            var socketEvents: Int16 = 0, watchEvents: Int16 = 0
            let result = den_poll2(fd, events, &socketEvents, watch, Int16(POLLIN), &watchEvents, timeout)
            if result == -EINTR { continue }
            if result < 0 { throw .io(-result) }
            if result == 0 { continue } // the deadline is checked above
            // Bytes the worker wrote before it ended are still read; an end with none left is final.
            if socketEvents & events != 0 { return }
            if socketEvents & Int16(POLLHUP | POLLERR) != 0 { throw .closed }
            if watchEvents != 0 { throw .peerEnded }
        }
    }
}
