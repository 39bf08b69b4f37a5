/// A list of recognizer slots that the dispatch loop empties every step and fills again:
/// emptying it sets its count and nothing else, and its storage is written over.
///
/// Why: the step's two lists (`stepRecognizers`, `feedList`) are filled with every
/// recognizer a frame reaches. As arrays they cost a frame 175 instructions to empty
/// (`removeAll(keepingCapacity:)` is a generic range replacement, 87 a call), and written
/// over in place, a uniqueness check and a bounds check for every append: 3,315 and 58,890
/// instructions a frame that way, 3,231 and 56,284 this way
/// (Benchmarks/Sources/profile-dispatch under callgrind: two touches, eight recognizers
/// panning; 64 recognizers all possible).
///
/// The invariant a reader checks here: `base` points at `capacity` slots this list
/// allocated and alone owns (the list cannot be copied), and the first `count` of them are
/// the list. Slots are plain integers, so what lies past `count` is only stale.
///
/// A debug build (GESTUREKIT_CHECKED_ACCESS, Package.swift's `checkedInDebug`), the test
/// suite's included, keeps the list in an array instead, every read bounds-checked, as it
/// compiles out the engine's other shortcuts; a release build takes the pointer, and
/// scripts/test-release-asan.sh runs the engine's tests on it under AddressSanitizer.
struct SlotList: ~Copyable {
    #if GESTUREKIT_CHECKED_ACCESS
    private var slots: [RecognizerSlot]
    /// How many of the first slots are the list.
    private(set) var count = 0

    init(capacity: Int) {
        slots = []
        slots.reserveCapacity(max(capacity, 1))
    }

    subscript(index: Int) -> RecognizerSlot {
        precondition(index >= 0 && index < count, "Internal inconsistency: a slot list read past its end")
        return slots[index]
    }

    mutating func append(_ slot: RecognizerSlot) {
        if count < slots.count { slots[count] = slot } else { slots.append(slot) }
        count += 1
    }

    /// Empties the list, keeping its storage.
    mutating func removeAll() {
        count = 0
    }
    #else
    private var base: UnsafeMutablePointer<RecognizerSlot>
    private var capacity: Int
    /// How many of the first slots are the list.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    @inline(__always)
    subscript(index: Int) -> RecognizerSlot {
        precondition(index >= 0 && index < count, "Internal inconsistency: a slot list read past its end")
        return base[index]
    }

    @inline(__always)
    mutating func append(_ slot: RecognizerSlot) {
        if count == capacity { grow() }
        (base + count).initialize(to: slot)
        count += 1
    }

    /// Doubles the storage, keeping the list.
    @inline(never)
    private mutating func grow() {
        let larger = UnsafeMutablePointer<RecognizerSlot>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// Empties the list, keeping its storage.
    @inline(__always)
    mutating func removeAll() {
        count = 0
    }
    #endif
}
