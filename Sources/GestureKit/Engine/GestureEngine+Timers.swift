import HeapModule

/// The recognizers' deadlines: each recognizer asks for at most one (its `deadline`, read
/// after every call); the engine keeps them in a heap and wakes each recognizer at its own,
/// in order, before any later input. The engine never reads a clock: a deadline fires when
/// input at or after it arrives, or when `advance(to:)` passes it.
struct TimerQueue {
    struct Entry: Comparable {
        var deadline: Instant
        /// Ties go in the order the deadlines were asked for.
        var sequence: Int
        var slot: RecognizerSlot
        var generation: Int

        static func < (a: Entry, b: Entry) -> Bool {
            (a.deadline, a.sequence) < (b.deadline, b.sequence)
        }
        static func == (a: Entry, b: Entry) -> Bool {
            a.deadline == b.deadline && a.sequence == b.sequence
        }
    }

    /// Per recognizer slot: the deadline in the heap, the last one that fired, and a
    /// generation that makes every older heap entry of the slot stale.
    struct Slot {
        var armed: Instant?
        var fired: Instant?
        var generation = 0
    }

    private var heap = Heap<Entry>()
    private var sequence = 0
    private(set) var slots: [Slot] = []

    mutating func add(_ r: RecognizerSlot) {
        while slots.count <= r.rawValue { slots.append(Slot()) }
        slots[r.rawValue].armed = nil
        slots[r.rawValue].fired = nil
        slots[r.rawValue].generation &+= 1
    }

    mutating func remove(_ r: RecognizerSlot) {
        slots[r.rawValue].armed = nil
        slots[r.rawValue].generation &+= 1
    }

    func fired(_ r: RecognizerSlot) -> Instant? { slots[r.rawValue].fired }

    mutating func clearFired(_ r: RecognizerSlot) { slots[r.rawValue].fired = nil }

    /// Makes `wanted` the slot's deadline (none for nil), if it is not already.
    mutating func arm(_ r: RecognizerSlot, at wanted: Instant?) {
        guard wanted != slots[r.rawValue].armed else { return }
        slots[r.rawValue].generation &+= 1
        slots[r.rawValue].armed = wanted
        if let wanted {
            sequence &+= 1
            heap.insert(Entry(deadline: wanted, sequence: sequence, slot: r, generation: slots[r.rawValue].generation))
        }
    }

    private func isLive(_ entry: Entry) -> Bool {
        let s = slots[entry.slot.rawValue]
        return s.generation == entry.generation && s.armed == entry.deadline
    }

    /// The earliest live deadline (stale entries on top are dropped).
    mutating func nextDeadline() -> Instant? {
        while let top = heap.min {
            if isLive(top) { return top.deadline }
            _ = heap.removeMin()
        }
        return nil
    }

    /// Takes the earliest live deadline before `limit` (or at it, if `inclusive`), marking it
    /// fired.
    mutating func popDue(before limit: Instant, inclusive: Bool) -> (RecognizerSlot, Instant)? {
        while let top = heap.min, top.deadline < limit || (inclusive && top.deadline == limit) {
            _ = heap.removeMin()
            guard isLive(top) else { continue }
            slots[top.slot.rawValue].armed = nil
            slots[top.slot.rawValue].fired = top.deadline
            return (top.slot, top.deadline)
        }
        return nil
    }
}

extension GestureEngine {
    /// The recognizer's deadline, unless it is one that already fired (a recognizer that
    /// forgets to clear it is not woken twice).
    func liveDeadline(of r: RecognizerSlot) -> Instant? {
        guard let d = withRecognizer(r, { $0.deadline }), d != timers.fired(r) else { return nil }
        return d
    }

    /// Arms the timer of a recognizer that took part in the step to its deadline now.
    func rearm(_ r: RecognizerSlot) {
        // A recognizer in a final state waits for its sequence to end, not for a deadline.
        let wanted = arbiter.isEnabled(r) && !arbiter.members[r.rawValue].state.isFinal ? liveDeadline(of: r) : nil
        timers.arm(r, at: wanted)
    }

    /// Wakes every recognizer whose deadline is before `limit` (or at it), each in a step of
    /// its own at its deadline.
    func fireTimers(before limit: Instant, inclusive: Bool) {
        while let (r, deadline) = timers.popDue(before: limit, inclusive: inclusive) {
            beginStep(at: max(deadline, now))
            markDirty(r)
            apply(withRecognizer(r) { $0.deadlineReached(at: now) }, to: r)
            endStep()
        }
    }
}
