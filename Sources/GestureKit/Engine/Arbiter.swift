/// Arbitration: which recognizers may leave `possible`, and what one recognizer's success
/// does to the others.
///
/// **The rule, in one sentence:** a recognizer's decision to begin or recognize takes effect
/// at once unless a recognizer sharing one of its touches has begun and is not simultaneous
/// with it (then it fails), or a recognizer it requires to fail has begun or recognized (then
/// it fails) or is still possible and involved in a gesture (then it waits, and is weighed
/// again whenever a recognizer fails); and when it takes effect, every recognizer waiting
/// for it to fail fails, every recognizer not simultaneous with it that tracks one of its
/// touches fails (or is cancelled, if it had begun), and its touches stop reaching their views
/// if it cancels touches in view.
///
/// What each decision does, by the recognizer's state (`GestureDecision`):
///
/// | decision | possible | began / changed |
/// |---|---|---|
/// | `begin` | request `began` (discrete: `ended`) | nothing |
/// | `change` | nothing | `changed`, actions |
/// | `recognize`, `end` | request `ended` (continuous: `began`, then `ended` at once) | `ended`, actions, reset |
/// | `fail`, `cancel` | `failed`, reset | `cancelled`, actions, reset |
///
/// A request, weighed in this order:
///
/// | # | when | the recognizer |
/// |---|---|---|
/// | 1 | a transition is already waiting | keeps waiting (a waiting `began` followed by `ended` becomes began-then-ended) |
/// | 2 | a recognizer sharing one of its touches has begun, not simultaneous with it, and may prevent it (`canPrevent` / `canBePrevented`) | fails: "prevented by" |
/// | 3 | a recognizer it requires to fail (`require(toFail:)`, or either delegate's answer: the same, in every way) has begun or ended | fails: "recognized first" |
/// | 4 | a recognizer it requires to fail is possible and involved (has touches, a timer, or a waiting transition) | waits: "waiting for … to fail" |
/// | 5 | its view's `gestureRecognizerShouldBegin`, then its delegate's `shouldBegin`, says no | fails |
/// | 6 | otherwise | makes the transition (below) |
///
/// When a recognizer begins or recognizes:
///
/// | # | who | what happens |
/// |---|---|---|
/// | 1 | every involved recognizer that requires it to fail | fails: "recognized first" |
/// | 2 | every recognizer tracking one of its touches, not simultaneous with it, that it may prevent (`canPrevent` / `canBePrevented`) | fails (possible) or is cancelled (began): "excluded by" |
/// | 3 | its touches, if it cancels touches in view | stop reaching their views (`touchesCancelled`) |
/// | 4 | the recognizer itself | performs its actions (then, began-then-ended: `ended` and its actions again) |
/// | 5 | waiting recognizers | are weighed again once the exclusions are done, never in the middle of them |
///
/// A recognizer that fails is weighed no more and every waiting recognizer is weighed again. A
/// recognizer in a final state (ended, cancelled, failed) stays in it until its event sequence
/// ends: until every touch it tracks has lifted, touches that land meanwhile included (they
/// join its sequence, and it hears nothing of them). Then it is reset to `possible`, and from
/// then on ignores the touches that were down before its reset. (Disabled or removed, it is
/// reset at once.) At the end of every
/// step, a recognizer still possible whose touches have all lifted, with no timer and nothing
/// waiting, has seen all it will see: it fails ("touches lifted without a gesture").
///
/// The arbiter is a value type, a state machine in swift-nio's manner: each entry point
/// changes its own records and returns what the engine must do (`Action`s, in order, or a
/// begun recognizer's change as `Outcome.changed`); the engine carries them out after it
/// returns, so nothing the arbiter calls comes back into it. Every decision goes through
/// `decide`, whose first step is the first table (`GestureDecision.effect(in:kind:)`). It
/// owns every recognizer's record (RecognizerRecord.swift: state, touches, waiting
/// transition, timer, step mark), knows the recognizers only by their slots, and asks the
/// engine (`ArbiterQuestions`) what only the recognizers and their delegates can answer;
/// those answers read what the engine shows, never the arbiter. An inconsistency between
/// its records is a bug in it, checked by `assert` in debug builds.
struct Arbiter {
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

    /// What the engine must do, in order.
    enum Action: Hashable {
        /// Record the recognizer's new state and trace it.
        case transition(RecognizerSlot, from: GestureRecognizer.State, to: GestureRecognizer.State,
                        reason: TransitionReason)
        /// Call the recognizer's actions.
        case performActions(RecognizerSlot)
        /// Reset the recognizer's state machine (its arbitration state is reset already).
        case reset(RecognizerSlot)
        /// The recognizer decided, but waits for another to fail; trace it.
        case waiting(RecognizerSlot, reason: TransitionReason)
        /// Stop delivering the touch to its view (cancelsTouchesInView).
        case cancelTouchInView(TouchID)
    }

    /// Every recognizer's record (RecognizerRecord.swift), by slot; a slot no recognizer
    /// holds has `isAttached` false.
    private(set) var records: [RecognizerRecord] = []
    /// The recognizers' deadlines, in order (each record holds its own `timer`).
    private var timers = TimerQueue()
    private(set) var arenas: [Arena] = []
    /// The id the next touch will get; ids are never reused.
    private(set) var nextTouchID = TouchID(rawValue: 1)
    /// Recognizers with a transition waiting, in the order they began to wait.
    private var waitingList: [RecognizerSlot] = []
    /// Set by a failure, which may release recognizers that wait for it; cleared by
    /// `weighWaiting`, which weighs them again.
    private var released = false
    /// True while `weighWaiting` runs its passes.
    private var weighing = false
    /// What the engine must do, in order, since the last entry point returned (`takeActions`).
    private var produced: [Action] = []
    /// Changes whenever a recognizer enters a final state, is reset, or leaves the arenas:
    /// an arena's `live` list made at an earlier generation is out of date.
    private(set) var finalityGeneration = 0

    init() {
        produced.reserveCapacity(16)
        waitingList.reserveCapacity(8)
        arenas.reserveCapacity(16)
    }

    // MARK: - Members

    mutating func add(_ r: RecognizerSlot, kind: GestureRecognizer.Kind, isEnabled: Bool) {
        while records.count <= r.rawValue {
            var free = RecognizerRecord(kind: .discrete)
            free.isAttached = false
            records.append(free)
        }
        var record = RecognizerRecord(kind: kind)
        record.isEnabled = isEnabled
        // The slot's earlier occupant's deadlines stay stale.
        record.timer.generation = records[r.rawValue].timer.generation &+ 1
        records[r.rawValue] = record
    }

    /// `r` set `.began` without having said it is continuous: it is from now on (UIKit's
    /// rule: a recognizer that begins is continuous).
    mutating func makeContinuous(_ r: RecognizerSlot) {
        guard isMember(r) else { return }
        records[r.rawValue].kind = .continuous
    }

    mutating func remove(_ r: RecognizerSlot) {
        guard isMember(r) else { return }
        records[r.rawValue].isAttached = false
        timers.arm(r, &records[r.rawValue].timer, at: nil)
        waitingList.removeAll { $0 == r }
        for i in arenas.indices { arenas[i].members.removeAll { $0 == r } }
        finalityGeneration &+= 1
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

    // MARK: - What the engine asks the records to hold

    /// The engine is about to reset the recognizer's state machine (carrying out `reset`):
    /// no deadline of it has fired.
    mutating func machineWillReset(_ r: RecognizerSlot) {
        guard isMember(r) else { return }
        records[r.rawValue].timer.fired = nil
    }

    /// The engine has reset the recognizer's state machine: its deadline counts again.
    mutating func machineWasReset(_ r: RecognizerSlot) {
        if isMember(r) { records[r.rawValue].awaitingMachineReset = false }
    }

    /// The touches of `r`'s current sequence or, if it has none, of the sequence that ended at
    /// its last reset: what a transition just traced was about (the arbiter resets a
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

    /// Whether `r` waits for a deadline that has not fired yet (`RecognizerRecord.Timer.live`).
    func hasLiveDeadline(_ r: RecognizerSlot, _ q: some ArbiterQuestions) -> Bool {
        let deadline = q.deadline(of: r)
        return records[r.rawValue].timer.live(deadline) != nil
    }

    /// Makes `wanted` the recognizer's deadline (none for nil).
    @inline(__always)
    mutating func armTimer(_ r: RecognizerSlot, at wanted: Instant?) {
        timers.arm(r, &records[r.rawValue].timer, at: wanted)
    }

    /// The earliest deadline any recognizer waits for.
    mutating func nextDeadline() -> Instant? { timers.nextDeadline(records) }

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

    /// Whether `r` takes part in a gesture now: it has seen touches since its last reset, or
    /// waits on a timer or another recognizer.
    func isInvolved(_ r: RecognizerSlot, _ q: some ArbiterQuestions) -> Bool {
        guard isMember(r) else { return false }
        let i = r.rawValue
        return !records[i].touches.isEmpty || records[i].isWaiting
            || (!records[i].awaitingMachineReset && hasLiveDeadline(r, q))
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

    /// A new touch joins every member of its arena that is enabled and was not reset since
    /// it went down, before any recognizer hears of the frame: one that begins while the
    /// others are fed must find them tracking the touch (exclusivity), and one that decides
    /// must find the recognizers it waits for involved.
    mutating func join(_ touch: TouchID) {
        guard let a = arenaIndex(touch) else { return }
        for r in arenas[a].members where isMember(r) {
            guard records[r.rawValue].isEnabled, touch >= records[r.rawValue].minimumTouchID else { continue }
            records[r.rawValue].touches.append(touch)
            records[r.rawValue].touchesDown += 1
        }
    }

    /// `touch` joins one member only (a touchpad gesture, handed to its members one by one).
    mutating func join(_ touch: TouchID, member r: RecognizerSlot) {
        guard isMember(r) else { return }
        records[r.rawValue].touches.append(touch)
        records[r.rawValue].touchesDown += 1
    }

    /// `r` stops tracking `touch` (UIKit's `ignore(_:for:)`); `stillDown` says whether the
    /// touch is down (and so counted in `touchesDown`).
    mutating func ignore(_ touch: TouchID, for r: RecognizerSlot, stillDown: Bool) {
        guard isMember(r), let i = records[r.rawValue].touches.firstIndex(of: touch) else { return }
        records[r.rawValue].touches.remove(at: i)
        if stillDown { records[r.rawValue].touchesDown -= 1 }
    }

    /// One of `r`'s touches lifted (ended or was cancelled).
    mutating func lift(_ r: RecognizerSlot) {
        if isMember(r) { records[r.rawValue].touchesDown -= 1 }
    }

    // MARK: - Decisions
    //
    // How arbitration runs, with no call ever coming back into the arbiter:
    // - The entry points (`decide`, `withdraw`, `endOfStep`, `endSequenceIfOver`) each return
    //   what the engine must do: the actions they produced, in order (or, for a begun
    //   recognizer's change, the `Outcome.changed` value alone).
    // - A request to leave `possible` gets one `Verdict` (`verdict(on:)`): fail with a reason,
    //   wait on a recognizer, or commit. Rows 2–5 of the request table, in order.
    // - A commit makes the transition, then carries out the success's consequences, each
    //   row of the success table a list (`requirers(of:)`, `excluded(by:)`, the touches to
    //   take from their views), then the recognizer's actions (row 4).
    // - A failure may release recognizers that wait (row 5): it only sets `released`. The
    //   waiting list is weighed again by one loop, `weighWaiting`, until a pass releases none.
    //   An entry point runs it right after the failures it causes; a commit runs it after its
    //   exclusions and before its actions, unless the commit is itself part of a pass (the
    //   pass goes on instead).

    /// What a decision comes to.
    enum Outcome: Hashable {
        /// `r`, which had begun, is `changed`: the engine records the transition from `from`
        /// (with its own reason: the touches moved, or the pointer or a pen did) and performs
        /// its actions. It touches no other recognizer, and it is the decision of almost every
        /// frame of a gesture under way, so it comes back as this value, with no list.
        case changed(RecognizerSlot, from: GestureRecognizer.State)
        /// What the engine must do, in order (perhaps nothing).
        case actions([Action])
    }

    /// The verdict on a request to leave `possible` (rows 2–5 of the request table).
    enum Verdict: Hashable {
        /// The recognizer fails (rows 2, 3, 5).
        case fail(TransitionReason)
        /// It waits for this recognizer to fail (row 4).
        case wait(on: RecognizerSlot)
        /// It makes the transition (row 6).
        case commit
    }

    /// Weighs `decision`, which `r` just made (`GestureDecision.effect`, the first table).
    mutating func decide(_ decision: GestureDecision, for r: RecognizerSlot,
                         _ q: some ArbiterQuestions) -> Outcome {
        guard isMember(r) else { return .actions([]) }
        let state = records[r.rawValue].state
        switch decision.effect(in: state, kind: records[r.rawValue].kind) {
        case .none:
            break
        case let .request(p):
            request(r, p, q)
        case .change:
            return change(r)
        case let .end(reason):
            transition(r, to: .ended, reason: reason)
            produced.append(.performActions(r))
            finished(r)
        case let .fail(reason):
            fail(r, reason)
            weighWaiting(q)
        case let .cancel(reason):
            cancel(r, reason)
        }
        return .actions(takeActions())
    }

    /// The first table's `change` row, apart because it is the decision of almost every frame
    /// of a gesture under way (the engine calls it directly, without making the table's
    /// value, which carries reasons): a begun recognizer becomes `changed`, from the state it
    /// was in; one not begun is left as it is (no actions).
    @inline(__always)
    mutating func change(_ r: RecognizerSlot) -> Outcome {
        guard isMember(r) else { return .actions([]) }
        let state = records[r.rawValue].state
        assert(GestureDecision.change.effect(in: state, kind: records[r.rawValue].kind) == (state.isActive ? .change : .none))
        guard state.isActive else { return .actions([]) }
        records[r.rawValue].state = .changed
        return .changed(r, from: state)
    }

    /// Something outside the gesture took `r` away (disabled, removed from its view): it
    /// fails, or is cancelled if it had begun.
    mutating func withdraw(_ r: RecognizerSlot, reason: TransitionReason, _ q: some ArbiterQuestions) -> [Action] {
        guard let m = member(r) else { return [] }
        if m.state.isFinal {
            reset(r)
        } else if m.state.isPossible && isInvolved(r, q) {
            fail(r, reason)
            weighWaiting(q)
        } else if m.state.isActive {
            cancel(r, reason)
        }
        // It no longer hears its touches lift: its sequence ends here.
        if member(r)?.state.isFinal == true { reset(r) }
        return takeActions()
    }

    /// The end of a step: a recognizer still possible whose touches have all lifted, with no
    /// timer and no transition waiting, has seen everything it will see: it fails.
    mutating func endOfStep(_ r: RecognizerSlot, _ q: some ArbiterQuestions) -> [Action] {
        guard let m = member(r), m.state.isPossible, !m.isWaiting, !m.touches.isEmpty,
              m.touchesDown == 0, m.awaitingMachineReset || !hasLiveDeadline(r, q) else { return [] }
        fail(r, .touchesLiftedWithoutGesture)
        weighWaiting(q)
        return takeActions()
    }

    /// Resets `r` if it is in a final state and every touch of its sequence has lifted.
    mutating func endSequenceIfOver(_ r: RecognizerSlot) -> [Action] {
        guard let m = member(r), m.state.isFinal, m.touchesDown <= 0 || !m.isEnabled else { return [] }
        reset(r)
        return takeActions()
    }

    /// The actions produced since the last entry point returned, handed to the engine.
    private mutating func takeActions() -> [Action] {
        assert(!released, "Internal inconsistency: a failure's waiting recognizers were not weighed again")
        guard !produced.isEmpty else { return [] }
        let list = produced
        produced.removeAll(keepingCapacity: true)
        return list
    }

    /// A request at the top of an entry point: merged with a transition already waiting
    /// (row 1), or given its verdict and carried out.
    private mutating func request(_ r: RecognizerSlot, _ p: PendingTransition, _ q: some ArbiterQuestions) {
        if let existing = records[r.rawValue].pending {
            switch (existing, p) {
            case let (.begin(reason), .beginThenEnd), let (.begin(reason), .recognize):
                records[r.rawValue].pending = .beginThenEnd(reason)
            default:
                break
            }
            return
        }
        switch verdict(on: r, q) {
        case let .fail(reason):
            fail(r, reason)
            weighWaiting(q)
        case let .wait(on: b):
            wait(r, p, on: b, q)
        case .commit:
            commit(r, p, q)
            weighWaiting(q)
            performSuccess(r, p)
        }
    }

    /// Row 5 of the success table: weighs every waiting recognizer again, pass after pass,
    /// while a pass's failures may have released one. The one loop that does; nothing it
    /// calls runs it again.
    private mutating func weighWaiting(_ q: some ArbiterQuestions) {
        assert(!weighing, "Internal inconsistency: the waiting recognizers are weighed inside their own pass")
        weighing = true
        defer { weighing = false }
        while released {
            released = false
            for r in waitingList {
                guard let m = member(r), let p = m.pending, m.state.isPossible else { continue }
                if case .waiting = requirementStatus(of: r, q) { continue }
                clearPending(r)
                switch verdict(on: r, q) {
                case let .fail(reason):
                    fail(r, reason)
                case let .wait(on: b):
                    wait(r, p, on: b, q)
                case .commit:
                    commit(r, p, q)
                    performSuccess(r, p)
                }
            }
        }
    }

    private enum RequirementStatus {
        case clear
        case waiting(RecognizerSlot)
        case succeeded(RecognizerSlot)
    }

    /// Calls `body` with every other recognizer tracking one of `r`'s touches (with the
    /// touch): the members of the touch's arena that track it while the engine holds the
    /// touch, and once it has let it go (lifted, nothing held for its view), every member
    /// that still tracks it. Exclusivity so never depends on how long the engine keeps its
    /// records of touches.
    private func forEachSharingTouches(with r: RecognizerSlot, _ body: (RecognizerSlot, TouchID) -> Void) {
        guard let m = member(r) else { return }
        for touch in m.touches {
            if let a = arenaIndex(touch) {
                for other in arenas[a].members where other != r && isMember(other)
                    && records[other.rawValue].touches.contains(touch) {
                    body(other, touch)
                }
            } else {
                for i in records.indices where i != r.rawValue && records[i].isAttached
                    && records[i].touches.contains(touch) {
                    body(RecognizerSlot(rawValue: i), touch)
                }
            }
        }
    }

    /// Whether `a` must wait for `b` to fail by a delegate's answer or an override, beyond
    /// its `require(toFail:)` list (a request, row 3: the same in every way). An answer that
    /// would close a cycle of `require(toFail:)` is ignored, unless `a` already waits (then
    /// `b`'s success ends its wait as any requirement's would).
    private func requiresByAnswer(_ a: RecognizerSlot, toFail b: RecognizerSlot, whileWaiting: Bool,
                                  _ q: some ArbiterQuestions) -> Bool {
        q.hasDynamicRequirements && !q.explicitlyRequires(a, toFail: b) && q.requires(a, toFail: b)
            && (whileWaiting || !q.requirementPathExists(from: b, to: a))
    }

    private func requirementStatus(of r: RecognizerSlot, _ q: some ArbiterQuestions) -> RequirementStatus {
        var waitingOn: RecognizerSlot?
        func consider(_ b: RecognizerSlot) -> RequirementStatus? {
            guard b != r, let mb = member(b) else { return nil }
            if mb.state.isActive || mb.state.isEnded { return .succeeded(b) }
            if mb.state.isPossible && waitingOn == nil && isInvolved(b, q) { waitingOn = b }
            return nil
        }
        var status: RequirementStatus?
        q.forEachExplicitRequirement(of: r) { b in
            status = consider(b)
            return status == nil
        }
        if let status { return status }
        // The delegates' requirements count as require(toFail:) does, whatever view the other
        // recognizer is on: every recognizer that could matter is asked about, those in a
        // gesture or that have begun or ended.
        if q.hasDynamicRequirements {
            for i in records.indices where i != r.rawValue && records[i].isAttached {
                let b = RecognizerSlot(rawValue: i)
                let s = records[i].state
                guard s.isActive || s.isEnded || (s.isPossible && isInvolved(b, q)),
                      requiresByAnswer(r, toFail: b, whileWaiting: false, q) else { continue }
                if let found = consider(b) { return found }
            }
        }
        if let waitingOn { return .waiting(waitingOn) }
        return .clear
    }

    /// The verdict on `r`'s request: rows 2 to 5 of the request table, asked in that order.
    private func verdict(on r: RecognizerSlot, _ q: some ArbiterQuestions) -> Verdict {
        var preventer: RecognizerSlot?
        forEachSharingTouches(with: r) { other, _ in
            if preventer == nil, records[other.rawValue].state.isActive, !q.simultaneous(r, other),
               q.canPrevent(other, r) {
                preventer = other
            }
        }
        if let preventer { return .fail(.preventedBy(q.name(of: preventer))) }
        switch requirementStatus(of: r, q) {
        case let .succeeded(b): return .fail(.requiredRecognizerSucceeded(q.name(of: b)))
        case let .waiting(b): return .wait(on: b)
        case .clear: break
        }
        if !q.viewShouldBegin(r) { return .fail(.viewDeclinedBegin) }
        if !q.shouldBegin(r) { return .fail(.delegateDeclinedBegin) }
        return .commit
    }

    /// Row 4: `r` keeps `p` until the recognizer it waits on fails or succeeds.
    private mutating func wait(_ r: RecognizerSlot, _ p: PendingTransition, on b: RecognizerSlot,
                               _ q: some ArbiterQuestions) {
        records[r.rawValue].pending = p
        if !waitingList.contains(r) { waitingList.append(r) }
        produced.append(.waiting(r, reason: .waitingForFailure(of: q.name(of: b))))
    }

    /// Row 6, first half: `r` makes its transition, and its success's consequences are
    /// carried out (the success table, rows 1–3).
    private mutating func commit(_ r: RecognizerSlot, _ p: PendingTransition, _ q: some ArbiterQuestions) {
        clearPending(r)
        switch p {
        case let .recognize(reason):
            transition(r, to: .ended, reason: reason)
        case let .begin(reason), let .beginThenEnd(reason):
            transition(r, to: .began, reason: reason)
        }
        // Each row's list is made when the rows before it are carried out: a recognizer row 1
        // failed and reset tracks no touch any more, and row 2 does not ask about it.
        let name = q.name(of: r)
        for a in requirers(of: r, q) {
            fail(a, .requiredRecognizerSucceeded(name))
        }
        for (other, touch) in excluded(by: r, q) {
            // Checked again here: an earlier entry for another of its touches may have settled it.
            if isPossibleAndTracking(other, touch) {
                fail(other, .excludedBy(name))
            } else if records[other.rawValue].state.isActive && records[other.rawValue].touches.contains(touch) {
                cancel(other, .excludedBy(name))
            }
        }
        if q.cancelsTouchesInView(r), let m = member(r) {
            for touch in m.touches where arenaIndex(touch) != nil { produced.append(.cancelTouchInView(touch)) }
        }
    }

    /// Row 6, second half (the success table, row 4): `r` performs its actions; a transition
    /// that waited as began-then-ended ends now.
    private mutating func performSuccess(_ r: RecognizerSlot, _ p: PendingTransition) {
        produced.append(.performActions(r))
        if case .beginThenEnd = p, state(of: r)?.isActive == true {
            transition(r, to: .ended, reason: .touchesEnded)
            produced.append(.performActions(r))
        }
        if state(of: r)?.isFinal == true { finished(r) }
    }

    /// Row 1 of the success table: the involved recognizers, still possible, that require `r`
    /// to fail (`require(toFail:)` or an answer), in slot order.
    private func requirers(of r: RecognizerSlot, _ q: some ArbiterQuestions) -> [RecognizerSlot] {
        var list: [RecognizerSlot] = []
        for i in records.indices {
            let a = RecognizerSlot(rawValue: i)
            guard a != r, records[i].isAttached, records[i].state.isPossible, isInvolved(a, q) else { continue }
            if q.explicitlyRequires(a, toFail: r)
                || requiresByAnswer(a, toFail: r, whileWaiting: records[i].isWaiting, q) {
                list.append(a)
            }
        }
        return list
    }

    /// Row 2 of the success table: each recognizer tracking one of `r`'s touches, with the
    /// touch, that is not simultaneous with `r` and that `r` may prevent.
    private func excluded(by r: RecognizerSlot, _ q: some ArbiterQuestions) -> [(RecognizerSlot, TouchID)] {
        var list: [(RecognizerSlot, TouchID)] = []
        forEachSharingTouches(with: r) { other, touch in
            if !q.simultaneous(r, other), q.canPrevent(r, other) { list.append((other, touch)) }
        }
        return list
    }

    /// `r` fails, if it is still possible; recognizers waiting for it are weighed again by
    /// the caller's `weighWaiting`.
    private mutating func fail(_ r: RecognizerSlot, _ reason: TransitionReason) {
        guard state(of: r)?.isPossible == true else { return }
        clearPending(r)
        transition(r, to: .failed, reason: reason)
        finished(r)
        released = true
    }

    private mutating func cancel(_ r: RecognizerSlot, _ reason: TransitionReason) {
        guard state(of: r)?.isActive == true else { return }
        transition(r, to: .cancelled, reason: reason)
        produced.append(.performActions(r))
        finished(r)
    }

    /// `r` reached a final state (ended, cancelled, failed). It stays there until its event
    /// sequence ends, that is until every touch it tracks has lifted (touches that land
    /// meanwhile join the sequence); then it is reset. A disabled recognizer, which no longer
    /// hears its touches lift, is reset at once.
    private mutating func finished(_ r: RecognizerSlot) {
        if records[r.rawValue].touchesDown <= 0 || !records[r.rawValue].isEnabled {
            reset(r)
        } else {
            clearPending(r)
            // Its deadline no longer counts: nothing is decided until it is reset.
            records[r.rawValue].awaitingMachineReset = true
        }
    }

    private mutating func clearPending(_ r: RecognizerSlot) {
        if records[r.rawValue].isWaiting {
            records[r.rawValue].pending = nil
            waitingList.removeAll { $0 == r }
        }
    }

    private mutating func reset(_ r: RecognizerSlot) {
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

    private mutating func transition(_ r: RecognizerSlot, to state: GestureRecognizer.State,
                                     reason: TransitionReason) {
        let from = records[r.rawValue].state
        records[r.rawValue].state = state
        if state.isFinal { finalityGeneration &+= 1 }
        produced.append(.transition(r, from: from, to: state, reason: reason))
    }
}

/// What only the recognizers and their delegates can tell the arbiter. The engine answers
/// from the recognizer objects; tests answer from tables.
protocol ArbiterQuestions {
    /// The recognizer's name, for reasons ("waiting for double to fail").
    func name(of r: RecognizerSlot) -> String
    /// Calls `body` with each recognizer `r` was told to require to fail
    /// (`require(toFail:)`), in order, while `body` returns true.
    func forEachExplicitRequirement(of r: RecognizerSlot, _ body: (RecognizerSlot) -> Bool)
    /// Whether `a.require(toFail: b)` was said.
    func explicitlyRequires(_ a: RecognizerSlot, toFail b: RecognizerSlot) -> Bool
    /// Whether `a` must wait for `b` to fail: `require(toFail:)` or either delegate's answer.
    func requires(_ a: RecognizerSlot, toFail b: RecognizerSlot) -> Bool
    /// Whether any recognizer may have requirements besides `require(toFail:)` (a delegate,
    /// or a class of the app's own that may override `shouldRequireFailure(of:)`): if none
    /// has, `requires` is `explicitlyRequires`, and the arbiter need not ask every recognizer.
    var hasDynamicRequirements: Bool { get }
    /// Whether `a`, beginning or recognizing, may exclude `b` (`canPrevent` / `canBePrevented`).
    func canPrevent(_ a: RecognizerSlot, _ b: RecognizerSlot) -> Bool
    /// The view's `gestureRecognizerShouldBegin(_:)`.
    func viewShouldBegin(_ r: RecognizerSlot) -> Bool
    /// Whether explicit requirements lead from `a` to `b` (so `b` requiring `a` would be a cycle).
    func requirementPathExists(from a: RecognizerSlot, to b: RecognizerSlot) -> Bool
    /// Whether `a` and `b` may recognize at the same time.
    func simultaneous(_ a: RecognizerSlot, _ b: RecognizerSlot) -> Bool
    /// The delegate's `gestureRecognizerShouldBegin`.
    func shouldBegin(_ r: RecognizerSlot) -> Bool
    /// The recognizer's `deadline`, the moment it wants to be woken, if any.
    func deadline(of r: RecognizerSlot) -> Instant?
    /// The recognizer's `cancelsTouchesInView`.
    func cancelsTouchesInView(_ r: RecognizerSlot) -> Bool
}

/// A recognizer's place in its engine: the index of its entry in the engine's tables.
struct RecognizerSlot: RawRepresentable, Hashable, Sendable {
    var rawValue: Int
    static let none = RecognizerSlot(rawValue: -1)
}
