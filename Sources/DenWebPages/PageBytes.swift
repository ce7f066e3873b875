/// The growing byte buffer behind `HTMLWriter`: an append is a capacity check and a `memcpy`
/// (an `Array` append of a few bytes costs several times that, and a page is hundreds of them).
final class PageBytes {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(toAtLeast: count + bytes.count) }
        (base + count).update(from: start, count: bytes.count)
        count += bytes.count
    }

    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    var string: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

    private func grow(toAtLeast needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
