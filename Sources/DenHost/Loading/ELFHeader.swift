import Foundation

/// The first bytes of a shared library, checked before `dlopen` so that an empty file, a text
/// file or a library for another CPU gets a precise message instead of the loader's terse (and
/// for another architecture misleading: "No such file or directory") `dlerror` text.
struct ELFHeader {
    static let byteCount = 20

    let isELF: Bool
    let machine: UInt16
    let is64Bit: Bool

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= ELFHeader.byteCount else { return nil }
        isELF = bytes[0] == 0x7F && bytes[1] == 0x45 && bytes[2] == 0x4C && bytes[3] == 0x46
        is64Bit = bytes[4] == 2
        let littleEndian = bytes[5] == 1
        machine = littleEndian ? UInt16(bytes[18]) | UInt16(bytes[19]) << 8 : UInt16(bytes[19]) | UInt16(bytes[18]) << 8
    }

    /// A readable CPU name for `e_machine`.
    static func architecture(of machine: UInt16, is64Bit: Bool) -> String {
        switch machine {
        case 0x3E: "x86_64"
        case 0xB7: "aarch64"
        case 0x03: "i386"
        case 0x28: "arm"
        case 0xF3: is64Bit ? "riscv64" : "riscv32"
        default: "machine type \(machine)"
        }
    }

    /// The `e_machine` value of the CPU this host was built for.
    static var hostMachine: (machine: UInt16, is64Bit: Bool) {
        #if arch(x86_64)
        (0x3E, true)
        #elseif arch(arm64)
        (0xB7, true)
        #else
        (0, MemoryLayout<Int>.size == 8)
        #endif
    }
}
