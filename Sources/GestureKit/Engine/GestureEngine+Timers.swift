import HeapModule

/// The recognizers' deadlines: each recognizer asks for at most one (its `deadline`, read
/// after every call); the engine keeps them in a heap and wakes each recognizer at its own,
/// in order, before any later input. The engine never reads a clock: a deadline fires when
/// input at or after it arrives, or when `advance(to:)` passes it.
///
/// The queue holds only the heap; each recognizer's deadline, the one that fired last and
/// the generation that makes older heap entries stale are in its record
/// (`RecognizerRecord.Timer`), and the arbiter, which owns the records, runs the queue.
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

    private var heap = Heap<Entry>()
    private var sequence = 0

    /// Makes `wanted` the deadline of `r`, whose timer is `timer` (none for nil), if it is
    /// not already.
    mutating func arm(_ r: RecognizerSlot, _ timer: inout RecognizerRecord.Timer, at wanted: Instant?) {
        guard wanted != timer.armed else { return }
        timer.generation &+= 1
        timer.armed = wanted
        if let wanted {
            sequence &+= 1
            heap.insert(Entry(deadline: wanted, sequence: sequence, slot: r, generation: timer.generation))
        }
    }

    private static func isLive(_ entry: Entry, _ records: [RecognizerRecord]) -> Bool {
        let t = records[entry.slot.rawValue].timer
        return t.generation == entry.generation && t.armed == entry.deadline
    }

    /// The earliest live deadline (stale entries on top are dropped).
    mutating func nextDeadline(_ records: [RecognizerRecord]) -> Instant? {
        while let top = heap.min {
            if Self.isLive(top, records) { return top.deadline }
            _ = heap.removeMin()
        }
        return nil
    }

    /// Takes the earliest live deadline before `limit` (or at it, if `inclusive`), marking it
    /// fired in its record.
    mutating func popDue(before limit: Instant, inclusive: Bool,
                         _ records: inout [RecognizerRecord]) -> (RecognizerSlot, Instant)? {
        while let top = heap.min, top.deadline < limit || (inclusive && top.deadline == limit) {
            _ = heap.removeMin()
            guard Self.isLive(top, records) else { continue }
            records[top.slot.rawValue].timer.armed = nil
            records[top.slot.rawValue].timer.fired = top.deadline
            return (top.slot, top.deadline)
        }
        return nil
    }
}

extension GestureEngine {
    /// The recognizer's deadline, unless it is one that already fired (`RecognizerRecord.Timer.live`).
    func liveDeadline(of r: RecognizerSlot) -> Instant? {
        let deadline = withRecognizer(r) { $0.deadline }
        return arbiter.records[r.rawValue].timer.live(deadline)
    }

    /// Arms the timer of a recognizer that took part in the step to its deadline now.
    func rearm(_ r: RecognizerSlot) {
        // A recognizer in a final state waits for its sequence to end, not for a deadline.
        let wanted = arbiter.isEnabled(r) && !arbiter.records[r.rawValue].state.isFinal ? liveDeadline(of: r) : nil
        arbiter.armTimer(r, at: wanted)
    }

    /// Wakes every recognizer whose deadline is before `limit` (or at it), each in a step of
    /// its own at its deadline.
    func fireTimers(before limit: Instant, inclusive: Bool) {
        while let (r, deadline) = arbiter.popDueTimer(before: limit, inclusive: inclusive) {
            beginStep(at: max(deadline, now))
            markDirty(r)
            apply(withRecognizer(r) { $0.deadlineReached(at: now) }, to: r)
            endStep()
        }
    }
}
