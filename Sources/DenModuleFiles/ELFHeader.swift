import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The ELF headers of a plugin file, checked before `dlopen` so that an empty file, a text file,
/// a library for another CPU or a truncated library gets a precise message. The dynamic loader's
/// own handling is worse: another CPU gives a misleading "No such file or directory", and a
/// truncated file (an interrupted copy or build) is mapped anyway and kills the process with
/// SIGBUS when the loader touches the missing pages.
package struct ELFHeader {
    package static let identificationSize = 20
    private static let headerSize64 = 64
    private static let loadableSegment: UInt32 = 1

    package let isELF: Bool
    package let is64Bit: Bool
    package let machine: UInt16
    /// How many bytes the file must have to hold every segment and table the headers name.
    package private(set) var requiredSize: UInt64 = 0

    /// Reads and checks the headers of `file`. Returns nil for a file shorter than an ELF identification.
    /// Plain POSIX calls: this runs on every plugin load, next to a ~0.2 ms `dlopen`.
    package static func read(_ file: URL) throws(ELFReadError) -> (header: ELFHeader?, fileSize: UInt64) {
        let descriptor = open(file.filePath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ELFReadError(errno: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ELFReadError(errno: errno) }
        let fileSize = UInt64(info.st_size)

        func bytes(at offset: UInt64, count: Int) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: count)
            let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            return Array(buffer.prefix(max(read, 0)))
        }

        let start = bytes(at: 0, count: headerSize64)
        guard var header = ELFHeader(start) else { return (nil, fileSize) }
        guard header.isELF, header.is64Bit, start.count >= headerSize64, start[5] == 1 else { return (header, fileSize) }

        let phoff = start.uint64(at: 32), shoff = start.uint64(at: 40)
        let phentsize = UInt64(start.uint16(at: 54)), phnum = UInt64(start.uint16(at: 56))
        let shentsize = UInt64(start.uint16(at: 58)), shnum = UInt64(start.uint16(at: 60))
        // Crafted headers must not wrap the arithmetic into a small, passing number.
        let programTableEnd = end(phoff, phentsize, phnum)
        var required = max(programTableEnd, shnum == 0 ? 0 : end(shoff, shentsize, shnum))
        if phnum > 0, phentsize >= 56, programTableEnd <= fileSize {
            let table = bytes(at: phoff, count: Int(phentsize * phnum))
            for index in 0..<Int(phnum) {
                let base = index * Int(phentsize)
                guard table.uint32(at: base) == loadableSegment else { continue }
                required = max(required, end(table.uint64(at: base + 8), 1, table.uint64(at: base + 32)))
            }
        }
        header.requiredSize = required
        return (header, fileSize)
    }

    /// `offset + size × count`, or `UInt64.max` when that overflows.
    private static func end(_ offset: UInt64, _ size: UInt64, _ count: UInt64) -> UInt64 {
        let (length, overflowA) = size.multipliedReportingOverflow(by: count)
        let (sum, overflowB) = offset.addingReportingOverflow(length)
        return overflowA || overflowB ? .max : sum
    }

    package init?(_ bytes: [UInt8]) {
        guard bytes.count >= ELFHeader.identificationSize else { return nil }
        isELF = bytes[0] == 0x7F && bytes[1] == 0x45 && bytes[2] == 0x4C && bytes[3] == 0x46
        is64Bit = bytes[4] == 2
        let littleEndian = bytes[5] == 1
        machine = littleEndian ? UInt16(bytes[18]) | UInt16(bytes[19]) << 8 : UInt16(bytes[19]) | UInt16(bytes[18]) << 8
    }

    /// A readable CPU name for `e_machine`.
    package static func architecture(of machine: UInt16, is64Bit: Bool) -> String {
        switch machine {
        case 0x3E: is64Bit ? "x86_64" : "x32 (32-bit x86_64)"
        case 0xB7: "aarch64"
        case 0x03: "i386"
        case 0x28: "arm"
        case 0xF3: is64Bit ? "riscv64" : "riscv32"
        default: "machine type \(machine)"
        }
    }

    package static var hostMachineName: String {
        architecture(of: hostMachine.machine, is64Bit: hostMachine.is64Bit)
    }

    /// The `e_machine` value of the CPU this host was built for.
    package static var hostMachine: (machine: UInt16, is64Bit: Bool) {
        #if arch(x86_64)
        (0x3E, true)
        #elseif arch(arm64)
        (0xB7, true)
        #else
        (0, MemoryLayout<Int>.size == 8)
        #endif
    }
}

package struct ELFReadError: Error, CustomStringConvertible {
    package let errno: Int32
    package var description: String { String(cString: strerror(errno)) }
}

private extension Array where Element == UInt8 {
    /// Little-endian reads; out-of-range offsets read as zero.
    package func uint16(at offset: Int) -> UInt16 { UInt16(truncatingIfNeeded: uint(at: offset, width: 2)) }
    package func uint32(at offset: Int) -> UInt32 { UInt32(truncatingIfNeeded: uint(at: offset, width: 4)) }
    package func uint64(at offset: Int) -> UInt64 { uint(at: offset, width: 8) }

    private func uint(at offset: Int, width: Int) -> UInt64 {
        guard offset >= 0, offset + width <= count else { return 0 }
        var value: UInt64 = 0
        for index in (0..<width).reversed() { value = value << 8 | UInt64(self[offset + index]) }
        return value
    }
}
