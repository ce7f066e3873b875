#if canImport(Glibc)
import Glibc
#endif

/// Reads the values of exported data symbols (`den_abi_version`, `den_toolchain`) from a shared
/// library's file, without loading it: `dlopen` would already run the plugin's ELF constructors
/// and register its Swift types with the runtime for good, which a plugin built for another ABI
/// or toolchain must never get to do. Uses the section headers (`.dynsym`, its string table and
/// the section holding each value); a library stripped of section headers yields nil, and the
/// loader then falls back to checking the symbols after `dlopen`.
package struct ELFSymbolReader {
    private static let dynamicSymbolTable: UInt32 = 11
    private static let noBits: UInt32 = 8

    private struct Section {
        let type: UInt32
        let address: UInt64
        let offset: UInt64
        let size: UInt64
        let link: UInt32
        let entrySize: UInt64
    }

    private let descriptor: Int32
    private let fileSize: UInt64
    private let sections: [Section]

    /// Opens `path`; nil when it is not a readable little-endian 64-bit ELF file with section headers.
    package init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { Glibc.close(descriptor); return nil }
        self.descriptor = descriptor
        self.fileSize = UInt64(info.st_size)
        let header = ELFSymbolReader.read(descriptor, at: 0, count: 64, limit: fileSize)
        guard header.count == 64, header[0] == 0x7F, header[4] == 2, header[5] == 1 else { Glibc.close(descriptor); return nil }
        let shoff = header.le(40, 8), shentsize = header.le(58, 2), shnum = header.le(60, 2)
        guard shnum > 0, shnum < 65_280, shentsize >= 64 else { Glibc.close(descriptor); return nil }
        let table = ELFSymbolReader.read(descriptor, at: shoff, count: Int(shentsize * shnum), limit: fileSize)
        guard table.count == Int(shentsize * shnum) else { Glibc.close(descriptor); return nil }
        sections = (0..<Int(shnum)).map { index in
            let base = index * Int(shentsize)
            return Section(type: UInt32(table.le(base + 4, 4)), address: table.le(base + 16, 8), offset: table.le(base + 24, 8),
                           size: table.le(base + 32, 8), link: UInt32(table.le(base + 40, 4)), entrySize: table.le(base + 56, 8))
        }
    }

    package func finish() {
        _ = Glibc.close(descriptor)
    }

    /// The bytes (at most `maximum` each) of those of the defined dynamic symbols `names` that the
    /// library defines, in one pass over its dynamic symbol table.
    package func values(of names: [String], maximum: Int = 4096) -> [String: [UInt8]] {
        let wanted = names.map { Array($0.utf8) }
        var found: [String: [UInt8]] = [:]
        for symbols in sections where symbols.type == ELFSymbolReader.dynamicSymbolTable && symbols.entrySize >= 24 {
            guard Int(symbols.link) < sections.count, symbols.size <= 64 << 20 else { continue }
            let strings = sections[Int(symbols.link)]
            let table = ELFSymbolReader.read(descriptor, at: symbols.offset, count: Int(symbols.size), limit: fileSize)
            let text = ELFSymbolReader.read(descriptor, at: strings.offset, count: Int(min(strings.size, 16 << 20)), limit: fileSize)
            for index in 0..<(table.count / Int(symbols.entrySize)) {
                let base = index * Int(symbols.entrySize)
                let nameOffset = Int(table.le(base, 4))
                guard nameOffset < text.count,
                      let match = wanted.firstIndex(where: { text.matches($0, at: nameOffset) }) else { continue }
                let sectionIndex = Int(table.le(base + 6, 2))
                guard sectionIndex > 0, sectionIndex < sections.count else { continue } // undefined here
                let address = table.le(base + 8, 8), size = Int(min(table.le(base + 16, 8), UInt64(maximum)))
                let holder = sections[sectionIndex]
                if holder.type == ELFSymbolReader.noBits {
                    found[names[match]] = [UInt8](repeating: 0, count: size)
                    continue
                }
                guard address >= holder.address else { continue }
                let (offset, overflow) = holder.offset.addingReportingOverflow(address - holder.address)
                guard !overflow else { continue }
                found[names[match]] = ELFSymbolReader.read(descriptor, at: offset, count: size, limit: fileSize)
            }
        }
        return found
    }

    private static func read(_ descriptor: Int32, at offset: UInt64, count: Int, limit: UInt64) -> [UInt8] {
        guard count > 0, offset < limit else { return [] }
        let available = Int(min(UInt64(count), limit - offset))
        var buffer = [UInt8](repeating: 0, count: available)
        let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, available, off_t(offset)) }
        return Array(buffer.prefix(max(got, 0)))
    }
}

private extension Array where Element == UInt8 {
    /// A little-endian unsigned value of `width` bytes; zero when out of range.
    package func le(_ offset: Int, _ width: Int) -> UInt64 {
        guard offset >= 0, offset + width <= count else { return 0 }
        var value: UInt64 = 0
        for index in (0..<width).reversed() { value = value << 8 | UInt64(self[offset + index]) }
        return value
    }

    /// Whether the NUL-terminated string at `offset` is exactly `name`.
    package func matches(_ name: [UInt8], at offset: Int) -> Bool {
        guard offset + name.count < count else { return false }
        for index in name.indices where self[offset + index] != name[index] { return false }
        return self[offset + name.count] == 0
    }
}
