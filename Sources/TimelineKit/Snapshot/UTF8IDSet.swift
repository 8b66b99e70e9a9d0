/// A few IDs, asked about by the UTF-8 bytes of a candidate, so that no `String` is made of it.
///
/// A snapshot preview steps over a window of hundreds of messages and users to find the few its
/// head shows (`SnapshotPreviewReader`). Making a `String` of every ID stepped over and hashing
/// it with `Set<String>`'s SipHash cost a tenth of `show`'s first paint (callgrind, 10k data set);
/// this set compares the bytes in place, after a 64-bit FNV-1a hash of them picks the slot.
///
/// Open addressing, linear probing, at most half full: the IDs' bytes are kept end to end in one
/// array, each slot holding an entry's index.
struct UTF8IDSet {
    private struct Entry {
        var start: Int
        var count: Int
        var hash: UInt64
    }

    private var bytes: [UInt8] = []
    private var entries: [Entry] = []
    /// Entry index + 1 in each slot, 0 for an empty one; the count is a power of two.
    private var slots = [Int](repeating: 0, count: 16)

    init() {}

    init(_ ids: some Sequence<String>) {
        for id in ids { insert(id) }
    }

    var isEmpty: Bool { entries.isEmpty }

    mutating func insert(_ id: String) {
        var id = id
        id.withUTF8 { utf8 in
            let hash = Self.hash(utf8)
            guard slot(of: utf8, hash: hash).entry == nil else { return }
            entries.append(Entry(start: bytes.count, count: utf8.count, hash: hash))
            bytes.append(contentsOf: utf8)
            if entries.count * 2 > slots.count {
                rehash(capacity: slots.count * 2)
            } else {
                slots[slot(of: utf8, hash: hash).index] = entries.count
            }
        }
    }

    /// Whether `utf8` is the UTF-8 of one of the IDs.
    func contains(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        slot(of: utf8, hash: Self.hash(utf8)).entry != nil
    }

    /// Whether `id` is one of the IDs.
    func contains(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { contains($0) }
    }

    /// The slot that holds `utf8`'s entry, or the empty slot where it would go.
    private func slot(of utf8: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (index: Int, entry: Int?) {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = slots[index]
            if stored == 0 { return (index, nil) }
            let entry = entries[stored - 1]
            if entry.hash == hash, entry.count == utf8.count,
               bytes[entry.start ..< entry.start + entry.count].elementsEqual(utf8) {
                return (index, stored - 1)
            }
            index = (index + 1) & mask
        }
    }

    private mutating func rehash(capacity: Int) {
        slots = [Int](repeating: 0, count: capacity)
        let mask = capacity - 1
        for (number, entry) in entries.enumerated() {
            var index = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = number + 1
        }
    }

    /// 64-bit FNV-1a: enough to spread IDs over the slots; a collision costs a comparison.
    private static func hash(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
