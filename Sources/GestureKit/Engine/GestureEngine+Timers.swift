import HeapModule

/// The recognizers' deadlines: each recognizer asks for at most one (its `deadline`, read
/// after every call); the engine keeps them in a heap and wakes each recognizer at its own,
/// in order, before any later input. The engine never reads a clock: a deadline fires when
/// input at or after it arrives, or when `advance(to:)` passes it.
///
/// The queue holds only the heap; each recognizer's deadline, the one that fired last and
/// the generation that makes older heap entries stale are in its record
/// (`RecognizerRecord.Timer`), and the table (RecognizerTable.swift), which owns the records,
/// runs the queue.
///
/// The heap's top is always live: every change that may make it stale (a deadline armed
/// again or dropped, one taken, a slot given to another recognizer) drops the stale entries
/// on top. So the next deadline is read without changing anything (`next`), and an app may
/// ask the engine's `nextDeadline` from any callback.
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

    /// Makes `wanted` the deadline of `r` (none for nil), if it is not already.
    @inline(__always)
    mutating func arm(_ r: RecognizerSlot, at wanted: Instant?, _ records: inout [RecognizerRecord]) {
        guard wanted != records[r.rawValue].timer.armed else { return }
        records[r.rawValue].timer.generation &+= 1
        records[r.rawValue].timer.armed = wanted
        if let wanted {
            sequence &+= 1
            heap.insert(Entry(deadline: wanted, sequence: sequence, slot: r, generation: records[r.rawValue].timer.generation))
        }
        dropStale(records)
    }

    private static func isLive(_ entry: Entry, _ records: [RecognizerRecord]) -> Bool {
        let t = records[entry.slot.rawValue].timer
        return t.generation == entry.generation && t.armed == entry.deadline
    }

    /// Drops the stale entries on top, so the top is live.
    mutating func dropStale(_ records: [RecognizerRecord]) {
        while let top = heap.min, !Self.isLive(top, records) {
            _ = heap.removeMin()
        }
    }

    /// The earliest live deadline.
    var next: Instant? { heap.min?.deadline }

    /// Takes the earliest live deadline before `limit` (or at it, if `inclusive`), marking it
    /// fired in its record.
    mutating func popDue(before limit: Instant, inclusive: Bool,
                         _ records: inout [RecognizerRecord]) -> (RecognizerSlot, Instant)? {
        while let top = heap.min, top.deadline < limit || (inclusive && top.deadline == limit) {
            _ = heap.removeMin()
            guard Self.isLive(top, records) else { continue }
            records[top.slot.rawValue].timer.armed = nil
            records[top.slot.rawValue].timer.fired = top.deadline
            dropStale(records)
            return (top.slot, top.deadline)
        }
        return nil
    }
}

extension GestureEngine {
    /// Arms the timer of a recognizer that took part in the step to its deadline now, unless
    /// it is one that already fired (`RecognizerRecord.Timer.live`). The deadline is asked of
    /// the recognizer, app code for one of the app's own, which may take it out of the engine
    /// (its view removed) or give its slot to another: then it is armed to nothing.
    @inline(__always)
    func rearm(_ r: RecognizerSlot) {
        // A recognizer in a final state waits for its sequence to end, not for a deadline.
        guard storage.table.isEnabled(r), !storage.table.records[r.rawValue].state.isFinal else {
            storage.table.armTimer(r, at: nil)
            return
        }
        let generation = storage.table.records[r.rawValue].timer.generation
        let deadline = withRecognizer(r) { $0.deadline }
        guard storage.table.records[r.rawValue].timer.generation == generation, storage.table.isMember(r) else { return }
        storage.table.armTimer(r, at: storage.table.records[r.rawValue].timer.live(deadline))
    }

    /// Wakes every recognizer whose deadline is before `limit` (or at it), each in a step of
    /// its own at its deadline.
    func fireTimers(before limit: Instant, inclusive: Bool) {
        while let (r, deadline) = storage.table.popDueTimer(before: limit, inclusive: inclusive) {
            beginStep(at: max(deadline, now))
            markDirty(r)
            let withdrawals = storage.withdrawals
            apply(withRecognizer(r) { $0.deadlineReached(at: now) }, to: r, unlessWithdrawnSince: withdrawals)
            endStep()
        }
    }
}
