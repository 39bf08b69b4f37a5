/// The engine's recognizers, in one table: the one home of everything the engine holds of each
/// attached recognizer (its object and the handle the dispatch loop calls it through, what it
/// shows the app, its arbitration record), and of what arbitration keeps between decisions
/// (the touches' arenas and ids, the timers, the waiting list).
///
/// A slot is a recognizer's place here: the index of its entry (`entries`:
/// RecognizerEntry.swift) and of its record (`records`: RecognizerRecord.swift). The engine and
/// arbitration know recognizers by their slots; a recognizer knows its slot and its engine.
///
/// It is a value with no reference to anything that could run code of the app's: none of its
/// methods calls out, so an access to it ends before any other code runs. That is half of the
/// engine's rule (EngineStorage.swift): arbitration (Arbiter.swift), which must ask the
/// recognizers and their delegates questions, reads and changes the table in short accesses
/// between the questions, never across one. The engine keeps it in `storage.table`.
///
/// What the table changes for arbitration it also lists: each transition, reset or wait it
/// makes appends what the engine must then do (`ArbitrationAction`) to `produced`, which an
/// arbitration entry point hands the engine when it returns (`takeActions()`).
struct RecognizerTable {
    typealias PendingTransition = RecognizerRecord.PendingTransition

    /// The recognizers that may take one touch: those attached to its view and the view's
    /// ancestors when it went down (Flutter's arena). It stays open while the engine holds a
    /// record of the touch.
    struct Arena {
        let touch: TouchID
        var members: [RecognizerSlot]
        /// The members not in a final state, in the order of `members`, as of
        /// `liveGeneration` (see `refreshLive`): a frame without lifts feeds no other.
        var live: [RecognizerSlot] = []
        var liveGeneration = -1
    }

    // MARK: Per slot

    /// The recognizer objects, their handles and what they show, by slot.
    private(set) var entries: [RecognizerEntry] = []
    /// Every recognizer's arbitration record, by slot; a slot no recognizer holds has
    /// `isAttached` false.
    private(set) var records: [RecognizerRecord] = []
    /// Slots given back, to be taken again.
    private var freeSlots: [Int] = []
    /// How many recognizers the table has been given: the number of the next default name.
    private(set) var recognizersNumbered = 0

    // MARK: Arbitration's between decisions

    /// The recognizers' deadlines, in order (each record holds its own `timer`).
    private var timers = TimerQueue()
    private(set) var arenas: [Arena] = []
    /// The id the next touch will get; ids are never reused.
    private(set) var nextTouchID = TouchID(rawValue: 1)
    /// Recognizers with a transition waiting, in the order they began to wait.
    private(set) var waitingList: [RecognizerSlot] = []
    /// Set by a failure, which may release recognizers that wait for it; cleared when the
    /// waiting recognizers are weighed again (`Arbiter.swift`, `weighWaiting`).
    var released = false
    /// True while the waiting recognizers are weighed again.
    var weighing = false
    /// What the engine must do, in order, since the last entry point returned (`takeActions`).
    private var produced: [ArbitrationAction] = []
    /// Changes whenever a recognizer enters a final state, is reset, or leaves the arenas:
    /// an arena's `live` list made at an earlier generation is out of date.
    private(set) var finalityGeneration = 0

    init() {
        produced.reserveCapacity(16)
        waitingList.reserveCapacity(8)
        arenas.reserveCapacity(16)
    }

    // MARK: - Slots

    /// Gives `recognizer` a slot: a free one, or a new one at the end. Its default name is
    /// numbered (`GestureRecognizer.number`), in the order the table got it.
    mutating func add(_ recognizer: GestureRecognizer, kind: GestureRecognizer.Kind,
                      isEnabled: Bool) -> RecognizerSlot {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            entries[slot] = RecognizerEntry(recognizer)
        } else {
            slot = entries.count
            entries.append(RecognizerEntry(recognizer))
        }
        while records.count <= slot {
            var free = RecognizerRecord(kind: .discrete)
            free.isAttached = false
            records.append(free)
        }
        recognizersNumbered += 1
        recognizer.number(recognizersNumbered)
        var record = RecognizerRecord(kind: kind)
        record.isEnabled = isEnabled
        // The slot's earlier occupant's deadlines stay stale.
        record.timer.generation = records[slot].timer.generation &+ 1
        record.withdrawnAt = records[slot].withdrawnAt
        records[slot] = record
        timers.dropStale(records)
        return RecognizerSlot(rawValue: slot)
    }

    /// The recognizer in slot `r` leaves it: it is weighed no more, its deadline is dropped,
    /// and the slot is free for the next recognizer. What it showed stays until then.
    mutating func remove(_ r: RecognizerSlot) {
        guard isMember(r) else { return }
        entries[r.rawValue].vacate()
        freeSlots.append(r.rawValue)
        records[r.rawValue].isAttached = false
        timers.arm(r, at: nil, &records)
        waitingList.removeAll { $0 == r }
        for i in arenas.indices { arenas[i].members.removeAll { $0 == r } }
        finalityGeneration &+= 1
    }

    /// The recognizer in slot `r` was withdrawn (disabled, removed); `count` is the engine's
    /// count of withdrawals.
    mutating func noteWithdrawn(_ r: RecognizerSlot, count: Int) {
        records[r.rawValue].withdrawnAt = count
    }

    /// Whether slot `r` holds `recognizer`.
    @inline(__always)
    func holds(_ recognizer: GestureRecognizer, at r: RecognizerSlot) -> Bool {
        let i = r.rawValue
        return i >= 0 && i < entries.count && entries[i].recognizer === recognizer
    }

    /// The recognizer in slot `r`, if the slot is taken.
    @inline(__always)
    func recognizer(_ r: RecognizerSlot) -> GestureRecognizer? {
        entries[r.rawValue].recognizer
    }

    /// The unretained handle of the recognizer in slot `r`, if the slot is taken.
    @inline(__always)
    func handle(_ r: RecognizerSlot) -> UnretainedRecognizer? {
        entries[r.rawValue].handle
    }

    /// How many slots there are, taken or free.
    var slotCount: Int { entries.count }

    /// What the recognizer in slot `r` shows (`state`, `numberOfTouches`, `location(in:)`).
    @inline(__always)
    func shown(_ r: RecognizerSlot) -> RecognizerRecord.Shown {
        entries[r.rawValue].shown
    }

    /// The state the recognizer in slot `r` shows.
    @inline(__always)
    func shownState(_ r: RecognizerSlot) -> GestureRecognizer.State {
        entries[r.rawValue].shown.state
    }

    /// The recognizer shows `state` (the engine carries out a transition).
    @inline(__always)
    mutating func show(_ state: GestureRecognizer.State, _ r: RecognizerSlot) {
        entries[r.rawValue].shown.state = state
    }

    /// The recognizer shows the touches of its record: every touch it tracked since its last
    /// reset (its count), and those its location is the centroid of.
    @inline(__always)
    mutating func showTouches(_ r: RecognizerSlot) {
        guard isMember(r) else { return }
        let i = r.rawValue
        entries[i].shown.numberOfTouches = records[i].touches.count
        entries[i].shown.touches = records[i].touches.isEmpty ? records[i].previousSequence : records[i].touches
    }

    @inline(__always)
    func isMember(_ r: RecognizerSlot) -> Bool {
        r.rawValue >= 0 && r.rawValue < records.count && records[r.rawValue].isAttached
    }

    func member(_ r: RecognizerSlot) -> RecognizerRecord? {
        isMember(r) ? records[r.rawValue] : nil
    }

    func state(of r: RecognizerSlot) -> GestureRecognizer.State? {
        member(r)?.state
    }

    mutating func setEnabled(_ r: RecognizerSlot, _ enabled: Bool) {
        if isMember(r) { records[r.rawValue].isEnabled = enabled }
    }

    /// `r` set `.began` without having said it is continuous: it is from now on (UIKit's
    /// rule: a recognizer that begins is continuous).
    mutating func makeContinuous(_ r: RecognizerSlot) {
        guard isMember(r) else { return }
        records[r.rawValue].kind = .continuous
    }

    // MARK: - What the engine asks the records to hold

    /// The engine is about to reset the recognizer's state machine (carrying out `reset`):
    /// no deadline of it has fired, and it shows the touches of the sequence that ended.
    mutating func machineWillReset(_ r: RecognizerSlot) {
        guard isMember(r) else { return }
        records[r.rawValue].timer.fired = nil
        entries[r.rawValue].shown = RecognizerRecord.Shown(touches: sequenceTouches(r))
    }

    /// The engine has reset the recognizer's state machine: its deadline counts again.
    mutating func machineWasReset(_ r: RecognizerSlot) {
        if isMember(r) { records[r.rawValue].awaitingMachineReset = false }
    }

    /// The touches of `r`'s current sequence or, if it has none, of the sequence that ended at
    /// its last reset: what a transition just traced was about (arbitration resets a
    /// recognizer whose sequence is over before the engine traces its final state).
    func sequenceTouches(_ r: RecognizerSlot) -> [TouchID] {
        guard let m = member(r) else { return [] }
        return m.touches.isEmpty ? m.previousSequence : m.touches
    }

    /// Lists `r` in step `step`: true the first time in that step.
    @inline(__always)
    mutating func markOnce(_ r: RecognizerSlot, step: Int) -> Bool {
        guard records[r.rawValue].stepMark != step else { return false }
        records[r.rawValue].stepMark = step
        return true
    }

    // MARK: - Timers

    /// Makes `wanted` the recognizer's deadline (none for nil). A slot no recognizer holds
    /// has none.
    @inline(__always)
    mutating func armTimer(_ r: RecognizerSlot, at wanted: Instant?) {
        assert(wanted == nil || records[r.rawValue].isAttached, "Internal inconsistency: a deadline armed for a free slot")
        timers.arm(r, at: wanted, &records)
    }

    /// The earliest deadline any recognizer waits for. Reads only: the queue keeps a live
    /// deadline on top (`TimerQueue`), so a delegate may ask it in the middle of arbitration.
    func nextDeadline() -> Instant? { timers.next }

    /// Takes the earliest deadline before `limit` (or at it, if `inclusive`), marking it fired.
    mutating func popDueTimer(before limit: Instant, inclusive: Bool) -> (RecognizerSlot, Instant)? {
        timers.popDue(before: limit, inclusive: inclusive, &records)
    }

    /// Whether `r` might fail at the end of the step (`endOfStep`): possible, nothing
    /// waiting, and every touch of its gesture lifted.
    func mayHaveSeenEverything(_ r: RecognizerSlot) -> Bool {
        guard r.rawValue >= 0 && r.rawValue < records.count else { return false }
        let i = r.rawValue
        return records[i].isAttached && records[i].state.isPossible && !records[i].isWaiting
            && records[i].touchesDown == 0 && !records[i].touches.isEmpty
    }

    /// Whether `r` is attached and enabled.
    @inline(__always)
    func isEnabled(_ r: RecognizerSlot) -> Bool {
        records[r.rawValue].isAttached && records[r.rawValue].isEnabled
    }

    /// Whether `r` is attached, still possible and tracking `touch` (what holds the touch's
    /// events back from its view, for a recognizer that delays them).
    @inline(__always)
    func isPossibleAndTracking(_ r: RecognizerSlot, _ touch: TouchID) -> Bool {
        records[r.rawValue].isAttached && records[r.rawValue].state.isPossible
            && records[r.rawValue].touches.contains(touch)
    }

    /// Whether `r` is attached, enabled and tracking `touch` (a touch that began before its
    /// last reset is not tracked).
    @inline(__always)
    func isTracking(_ r: RecognizerSlot, _ touch: TouchID) -> Bool {
        let i = r.rawValue
        return records[i].isAttached && records[i].isEnabled && touch >= records[i].minimumTouchID
            && records[i].touches.contains(touch)
    }

    // MARK: - Touches

    /// A new touch's id.
    mutating func newTouchID() -> TouchID {
        defer { nextTouchID = TouchID(rawValue: nextTouchID.rawValue + 1) }
        return nextTouchID
    }

    mutating func openArena(_ touch: TouchID, members list: [RecognizerSlot]) {
        arenas.append(Arena(touch: touch, members: list))
    }

    /// Brings arena `a`'s `live` list up to date: its members not in a final state, in order.
    /// A recognizer in a final state only waits for its sequence to end, so a frame without
    /// lifts passes it over; the list lets that frame skip it without visiting it. It is
    /// made again only after a recognizer entered a final state or was reset (rare: a few
    /// times a gesture), so a steady frame visits only the recognizers still in the gesture.
    @inline(__always)
    mutating func refreshLive(_ a: Int) {
        guard arenas[a].liveGeneration != finalityGeneration else { return }
        arenas[a].live.removeAll(keepingCapacity: true)
        var m = 0
        while m < arenas[a].members.count {
            let r = arenas[a].members[m]
            m += 1
            if !records[r.rawValue].state.isFinal { arenas[a].live.append(r) }
        }
        arenas[a].liveGeneration = finalityGeneration
    }

    mutating func closeArena(_ touch: TouchID) {
        if let i = arenaIndex(touch) { arenas.remove(at: i) }
    }

    func arenaIndex(_ touch: TouchID) -> Int? {
        for i in arenas.indices where arenas[i].touch == touch { return i }
        return nil
    }

    /// The members of `touch`'s arena (none once it is closed).
    func members(of touch: TouchID) -> [RecognizerSlot] {
        arenaIndex(touch).map { arenas[$0].members } ?? []
    }

    /// A new touch joins every member of its arena that is enabled and was not reset since
    /// it went down, before any recognizer hears of the frame: one that begins while the
    /// others are fed must find them tracking the touch (exclusivity), and one that decides
    /// must find the recognizers it waits for involved. Each shows its new touches.
    mutating func join(_ touch: TouchID) {
        guard let a = arenaIndex(touch) else { return }
        for r in arenas[a].members where isMember(r) {
            guard records[r.rawValue].isEnabled, touch >= records[r.rawValue].minimumTouchID else { continue }
            records[r.rawValue].touches.append(touch)
            records[r.rawValue].touchesDown += 1
        }
        for r in arenas[a].members { showTouches(r) }
    }

    /// `touch` joins one member only (a touchpad gesture, handed to its members one by one).
    mutating func join(_ touch: TouchID, member r: RecognizerSlot) {
        guard isMember(r) else { return }
        records[r.rawValue].touches.append(touch)
        records[r.rawValue].touchesDown += 1
        showTouches(r)
    }

    /// `r` stops tracking `touch` (UIKit's `ignore(_:for:)`); `stillDown` says whether the
    /// touch is down (and so counted in `touchesDown`).
    mutating func ignore(_ touch: TouchID, for r: RecognizerSlot, stillDown: Bool) {
        guard isMember(r), let i = records[r.rawValue].touches.firstIndex(of: touch) else { return }
        records[r.rawValue].touches.remove(at: i)
        if stillDown { records[r.rawValue].touchesDown -= 1 }
        showTouches(r)
    }

    /// One of `r`'s touches lifted (ended or was cancelled).
    @inline(__always)
    mutating func lift(_ r: RecognizerSlot) {
        guard isMember(r) else { return }
        records[r.rawValue].touchesDown -= 1
        showTouches(r)
    }

    // MARK: - Arbitration's changes (Arbiter.swift decides them)

    /// The `change` row of the first table: a begun recognizer becomes `changed`, from the
    /// state it was in, which is returned (the engine records the transition with its own
    /// reason and performs the actions); one not begun is left as it is (nil). It is the
    /// decision of almost every frame of a gesture under way, so it touches no other
    /// recognizer, asks nothing, and lists nothing.
    @inline(__always)
    mutating func change(_ r: RecognizerSlot) -> GestureRecognizer.State? {
        guard isMember(r) else { return nil }
        let state = records[r.rawValue].state
        assert(GestureDecision.change.effect(in: state, kind: records[r.rawValue].kind) == (state.isActive ? .change : .none))
        guard state.isActive else { return nil }
        records[r.rawValue].state = .changed
        return state
    }

    /// Resets `r` if it is in a final state and every touch of its sequence has lifted;
    /// true if it was (the engine then resets its state machine).
    mutating func endSequenceIfOver(_ r: RecognizerSlot) -> Bool {
        guard let m = member(r), m.state.isFinal, m.touchesDown <= 0 || !m.isEnabled else { return false }
        reset(r)
        // The one action, the reset, is the answer.
        produced.removeAll(keepingCapacity: true)
        return true
    }

    /// A request waiting for its verdict: merged with a transition already waiting (the
    /// request table's row 1); true if it was, and nothing more is to be weighed.
    mutating func mergeWithWaiting(_ r: RecognizerSlot, _ p: PendingTransition) -> Bool {
        guard let existing = records[r.rawValue].pending else { return false }
        switch (existing, p) {
        case let (.begin(reason), .beginThenEnd), let (.begin(reason), .recognize):
            records[r.rawValue].pending = .beginThenEnd(reason)
        default:
            break
        }
        return true
    }

    /// The request table's row 4: `r` keeps `p` until the recognizer it waits on fails or
    /// succeeds.
    mutating func wait(_ r: RecognizerSlot, _ p: PendingTransition, reason: TransitionReason) {
        records[r.rawValue].pending = p
        if !waitingList.contains(r) { waitingList.append(r) }
        produced.append(.waiting(r, reason: reason))
    }

    /// `r` performs its actions.
    mutating func performActions(_ r: RecognizerSlot) {
        produced.append(.performActions(r))
    }

    /// `r`'s touch stops reaching its view (cancelsTouchesInView).
    mutating func cancelTouchInView(_ touch: TouchID) {
        produced.append(.cancelTouchInView(touch))
    }

    /// `r` fails, if it is still possible; recognizers waiting for it are weighed again by
    /// the caller (`released`).
    mutating func fail(_ r: RecognizerSlot, _ reason: TransitionReason) {
        guard state(of: r)?.isPossible == true else { return }
        clearPending(r)
        transition(r, to: .failed, reason: reason)
        finished(r)
        released = true
    }

    /// `r` is cancelled, if it had begun.
    mutating func cancel(_ r: RecognizerSlot, _ reason: TransitionReason) {
        guard state(of: r)?.isActive == true else { return }
        transition(r, to: .cancelled, reason: reason)
        produced.append(.performActions(r))
        finished(r)
    }

    /// A begun recognizer ends (the first table's `end` row).
    mutating func end(_ r: RecognizerSlot, _ reason: TransitionReason) {
        transition(r, to: .ended, reason: reason)
        produced.append(.performActions(r))
        finished(r)
    }

    /// `r` reached a final state (ended, cancelled, failed). It stays there until its event
    /// sequence ends, that is until every touch it tracks has lifted (touches that land
    /// meanwhile join the sequence); then it is reset. A disabled recognizer, which no longer
    /// hears its touches lift, is reset at once.
    mutating func finished(_ r: RecognizerSlot) {
        if records[r.rawValue].touchesDown <= 0 || !records[r.rawValue].isEnabled {
            reset(r)
        } else {
            clearPending(r)
            // Its deadline no longer counts: nothing is decided until it is reset.
            records[r.rawValue].awaitingMachineReset = true
        }
    }

    mutating func clearPending(_ r: RecognizerSlot) {
        if records[r.rawValue].isWaiting {
            records[r.rawValue].pending = nil
            waitingList.removeAll { $0 == r }
        }
    }

    mutating func reset(_ r: RecognizerSlot) {
        finalityGeneration &+= 1
        records[r.rawValue].state = .possible
        records[r.rawValue].previousSequence.removeAll(keepingCapacity: true)
        records[r.rawValue].previousSequence.append(contentsOf: records[r.rawValue].touches)
        records[r.rawValue].touches.removeAll(keepingCapacity: true)
        records[r.rawValue].touchesDown = 0
        records[r.rawValue].minimumTouchID = nextTouchID
        clearPending(r)
        records[r.rawValue].awaitingMachineReset = true
        produced.append(.reset(r))
    }

    mutating func transition(_ r: RecognizerSlot, to state: GestureRecognizer.State,
                             reason: TransitionReason) {
        let from = records[r.rawValue].state
        records[r.rawValue].state = state
        if state.isFinal { finalityGeneration &+= 1 }
        produced.append(.transition(r, from: from, to: state, reason: reason))
    }

    /// The actions produced since the last entry point returned, handed to the engine.
    mutating func takeActions() -> [ArbitrationAction] {
        assert(!released, "Internal inconsistency: a failure's waiting recognizers were not weighed again")
        guard !produced.isEmpty else { return [] }
        let list = produced
        produced.removeAll(keepingCapacity: true)
        return list
    }
}

/// A recognizer's place in its engine: the index of its entry in the engine's table.
struct RecognizerSlot: RawRepresentable, Hashable, Sendable {
    var rawValue: Int
    static let none = RecognizerSlot(rawValue: -1)
}
