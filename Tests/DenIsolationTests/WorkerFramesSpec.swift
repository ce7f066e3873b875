import DenIsolation
import Foundation
import Glibc
import Testing

/// The host–worker frames on a real socket pair (docs/ISOLATION.md, "The host–worker protocol").
@Suite("Worker frames: what is sent is what arrives, and a broken frame is named")
struct WorkerFramesSpec {
    /// Two channels joined by a socket pair.
    final class Pair {
        let host: FrameChannel
        let worker: FrameChannel

        init() throws {
            var fds: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw POSIXError(.EIO) }
            host = FrameChannel(fd: fds[0])
            worker = FrameChannel(fd: fds[1])
        }

        deinit {
            close(host.fd)
            close(worker.fd)
        }
    }

    @Test("a request carries its kind, ref, name, the call's traceparent and its body; a frame without a trace carries none")
    func roundTrip() throws {
        let pair = try Pair()
        let traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
        try pair.host.send(Frame(.handle, ref: 7, name: "", trace: traceparent, body: Data(#"{"type":"appear"}"#.utf8)))
        try pair.host.send(Frame(.export, name: "add", body: Data("[1,2]".utf8)))
        let handle = try pair.worker.receive(deadline: .now + .seconds(5))
        #expect(handle.kind == .handle)
        #expect(handle.ref == 7)
        #expect(handle.trace == traceparent)
        #expect(handle.body == Data(#"{"type":"appear"}"#.utf8))
        let export = try pair.worker.receive(deadline: .now + .seconds(5))
        #expect(export.name == "add")
        #expect(export.trace.isEmpty)
        #expect(export.body == Data("[1,2]".utf8))
    }

    /// Writes raw bytes as one frame: its length, then `header` and `rest`.
    func raw(_ pair: Pair, kind: UInt8, nameLength: UInt16, traceLength: UInt8, _ rest: [UInt8]) throws -> ChannelFailure? {
        var bytes: [UInt8] = []
        func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        put(UInt32(Frame.headerBytes + rest.count))
        bytes.append(kind)
        put(Int32(0))
        put(UInt64(0))
        put(nameLength)
        bytes.append(traceLength)
        bytes += rest
        _ = bytes.withUnsafeBytes { send(pair.host.fd, $0.baseAddress, $0.count, 0) }
        do {
            _ = try pair.worker.receive(deadline: .now + .seconds(5))
            return nil
        } catch {
            return error
        }
    }

    @Test("a trace that runs past the frame, or is not printable ASCII, is a malformed frame")
    func malformed() throws {
        let past = try raw(Pair(), kind: FrameKind.handle.rawValue, nameLength: 0, traceLength: 55, Array("00-abc".utf8))
        #expect(past == .malformed("a frame whose name and trace run past its end"))
        let control = try raw(Pair(), kind: FrameKind.handle.rawValue, nameLength: 0, traceLength: 3, [0x30, 0x0A, 0x30])
        #expect(control == .malformed("a frame whose trace is not printable ASCII"))
        let fine = try raw(Pair(), kind: FrameKind.handle.rawValue, nameLength: 0, traceLength: 2, Array("00{}".utf8))
        #expect(fine == nil)
    }
}
