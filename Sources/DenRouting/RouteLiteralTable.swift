/// Every literal edge of the trie in one open-addressing hash table keyed by (parent node,
/// segment bytes). Why not `Dictionary<String, Int>` per node: hashing a `String` (SipHash over
/// normalized text) and comparing with Unicode equivalence dominated matching time; here a
/// lookup is one FNV-1a pass over the bytes, a probe or two, and a `memcmp`, with no ARC traffic.
///
/// Lookup keys come from routes (untrusted) but the table's contents are fixed at compile time
/// from registered patterns, so a crafted key cannot lengthen probe sequences beyond the
/// table's own clusters (load factor at most 1/2).
struct RouteLiteralTable: Sendable {
    struct Edge {
        let parent: Int
        let text: String
        let child: Int
    }

    struct Slot: Sendable {
        var parent: Int32 = -1  // -1: empty slot
        var child: Int32 = -1
        var hash: UInt32 = 0
        var textStart: Int32 = 0
        var textCount: Int32 = 0
    }

    private let slots: [Slot]
    private let text: [UInt8]
    private let mask: Int

    init(_ edges: [Edge]) {
        var capacity = 8
        while capacity < edges.count * 2 { capacity *= 2 }
        var slots = [Slot](repeating: Slot(), count: capacity)
        var text: [UInt8] = []
        for edge in edges {
            var edgeText = edge.text
            let hash = edgeText.withUTF8 { Self.hash(parent: edge.parent, bytes: $0) }
            var index = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while slots[index].parent >= 0 { index = (index + 1) & (capacity - 1) }
            slots[index] = Slot(
                parent: Int32(edge.parent), child: Int32(edge.child), hash: UInt32(truncatingIfNeeded: hash),
                textStart: Int32(text.count), textCount: Int32(edgeText.utf8.count))
            text += edgeText.utf8
        }
        self.slots = slots
        self.text = text
        self.mask = capacity - 1
    }

    /// Borrowed, pointer-based access for the duration of one match.
    struct View {
        let slots: UnsafeBufferPointer<Slot>
        let text: UnsafeBufferPointer<UInt8>
        let mask: Int

        /// The child of `parent` along the literal `bytes`, or -1.
        @inline(__always)
        func child(of parent: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            let hash = RouteLiteralTable.hash(parent: parent, bytes: bytes)
            let shortHash = UInt32(truncatingIfNeeded: hash)
            var index = Int(truncatingIfNeeded: hash) & mask
            while true {
                let slot = slots[index]
                if slot.parent < 0 { return -1 }
                if slot.hash == shortHash, Int(slot.parent) == parent, Int(slot.textCount) == bytes.count,
                   bytes.isEmpty || memcmpEqual(bytes.baseAddress!, text.baseAddress! + Int(slot.textStart), bytes.count) {
                    return Int(slot.child)
                }
                index = (index + 1) & mask
            }
        }
    }

    func withView<Result>(_ body: (View) -> Result) -> Result {
        slots.withUnsafeBufferPointer { slots in
            text.withUnsafeBufferPointer { text in
                body(View(slots: slots, text: text, mask: mask))
            }
        }
    }

    /// FNV-1a over the bytes, seeded with the parent node, then mixed so the low bits spread.
    @inline(__always)
    static func hash(parent: Int, bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ (UInt64(truncatingIfNeeded: parent) &* 0x9E37_79B9_7F4A_7C15)
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        hash ^= hash >> 32
        return hash
    }
}

@inline(__always)
private func memcmpEqual(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    var index = 0
    while index < count {
        if lhs[index] != rhs[index] { return false }
        index += 1
    }
    return true
}
