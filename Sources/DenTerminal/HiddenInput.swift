import DenHost
import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads a password at the terminal without showing it: echo is off while the user types (the
/// Enter still moves to a new line), and is restored however the read ends.
enum HiddenInput {
    /// The line typed, nil at end of input or when the user pressed Ctrl-C (which gives up the
    /// password, not den: the read runs as "busy", so Ctrl-C only raises a flag).
    static func readLine(prompt: String, interrupts: InterruptForwarder) -> String? {
        var probe = termios()
        guard tcgetattr(STDIN_FILENO, &probe) == 0 else { return Swift.readLine() }
        return TerminalEcho.hidden { readQuietly(prompt: prompt, interrupts: interrupts) }
    }

    private static func readQuietly(prompt: String, interrupts: InterruptForwarder) -> String? {
        StandardStream.output.write(prompt)
        return interrupts.whileBusy { () -> String? in
            var bytes: [UInt8] = []
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            while true {
                // Wake up now and then to notice Ctrl-C (poll is interrupted by it, too).
                let ready = poll(&descriptor, 1, 100)
                if interrupts.takeInterrupt() {
                    StandardStream.output.write("^C\n")
                    return nil
                }
                guard ready > 0 else { continue }
                var byte: UInt8 = 0
                guard read(STDIN_FILENO, &byte, 1) == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
                if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
                bytes.append(byte)
            }
        }
    }
}
