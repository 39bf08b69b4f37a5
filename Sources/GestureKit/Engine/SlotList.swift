/// A list of recognizer slots that the dispatch loop empties every step and fills again:
/// emptying it sets its count and nothing else, and its storage is written over.
///
/// Why: `Array.removeAll(keepingCapacity:)` goes through a generic range replacement, 87
/// instructions a call; the step's two lists (`stepRecognizers`, `feedList`) cost a frame 175
/// that way (Benchmarks/Sources/profile-dispatch under callgrind, two touches, eight
/// recognizers panning). Slots are plain integers, so what lies past `count` is only stale.
struct SlotList {
    private var storage: [RecognizerSlot] = []
    /// How many of `storage`'s first elements are the list.
    private(set) var count = 0

    init(capacity: Int) {
        storage.reserveCapacity(capacity)
    }

    @inline(__always)
    subscript(index: Int) -> RecognizerSlot {
        assert(index < count, "Internal inconsistency: a slot list read past its end")
        return storage[index]
    }

    @inline(__always)
    mutating func append(_ slot: RecognizerSlot) {
        if count < storage.count {
            storage[count] = slot
        } else {
            storage.append(slot)
        }
        count += 1
    }

    /// Empties the list, keeping its storage.
    @inline(__always)
    mutating func removeAll() {
        count = 0
    }
}
