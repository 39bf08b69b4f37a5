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
/// The arbiter is a value type: its methods change its own state and append what the engine
/// must do (`Action`) to `actions`, in order; the engine carries them out. Every decision
/// goes through `decide`; a begun recognizer's change, which touches no other, comes back as
/// its `Outcome` instead of through the queue. It owns every recognizer's record
/// (RecognizerRecord.swift: state, touches, waiting transition, timer, step mark), knows the
/// recognizers only by their slots, and asks the engine (`ArbiterQuestions`) what only the
/// recognizers and their delegates can answer.
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
    /// True while a success is excluding the recognizers it excludes: waiting recognizers
    /// are weighed again only once it is done.
    private var resolving = false
    private var needsResolve = false
    /// What the engine must do, in order. The engine takes them out.
    var actions: [Action] = []
    /// Changes whenever a recognizer enters a final state, is reset, or leaves the arenas:
    /// an arena's `live` list made at an earlier generation is out of date.
    private(set) var finalityGeneration = 0

    init() {
        actions.reserveCapacity(16)
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

    /// What a decision comes to.
    enum Outcome: Hashable {
        /// `r`, which had begun, is `changed`: the engine records the transition from `from`
        /// (with its own reason: the touches moved, or the pointer or a pen did) and performs
        /// its actions. It touches no other recognizer, and it is the decision of almost every
        /// frame of a gesture under way, so it comes back as this value, not in `actions`.
        case changed(RecognizerSlot, from: GestureRecognizer.State)
        /// What the engine must do is in `actions`, in order (perhaps nothing).
        case queued
    }

    /// Weighs `decision`, which `r` just made (see the table above).
    @discardableResult
    mutating func decide(_ decision: GestureDecision, for r: RecognizerSlot,
                         _ q: some ArbiterQuestions) -> Outcome {
        guard isMember(r) else { return .queued }
        let state = records[r.rawValue].state
        let kind = records[r.rawValue].kind
        switch decision {
        case .none:
            break
        case let .begin(reason):
            request(r, kind == .discrete ? .recognize(reason) : .begin(reason), q)
        case .change:
            if state.isActive {
                records[r.rawValue].state = .changed
                return .changed(r, from: state)
            }
        case let .recognize(reason), let .end(reason):
            if state.isPossible {
                request(r, kind == .discrete ? .recognize(reason) : .beginThenEnd(reason), q)
            } else if state.isActive {
                transition(r, to: .ended, reason: reason)
                actions.append(.performActions(r))
                finished(r)
            }
        case let .fail(reason), let .cancel(reason):
            if state.isPossible {
                fail(r, reason, q)
            } else if state.isActive {
                cancel(r, reason)
            }
        }
        return .queued
    }

    /// Something outside the gesture took `r` away (disabled, removed from its view): it
    /// fails, or is cancelled if it had begun.
    mutating func withdraw(_ r: RecognizerSlot, reason: TransitionReason, _ q: some ArbiterQuestions) {
        guard let m = member(r) else { return }
        if m.state.isFinal {
            reset(r)
        } else if m.state.isPossible && isInvolved(r, q) {
            fail(r, reason, q)
        } else if m.state.isActive {
            cancel(r, reason)
        }
        // It no longer hears its touches lift: its sequence ends here.
        if member(r)?.state.isFinal == true { reset(r) }
    }

    /// The end of a step: a recognizer still possible whose touches have all lifted, with no
    /// timer and no transition waiting, has seen everything it will see: it fails.
    mutating func endOfStep(_ r: RecognizerSlot, _ q: some ArbiterQuestions) {
        guard let m = member(r), m.state.isPossible, !m.isWaiting, !m.touches.isEmpty,
              m.touchesDown == 0, m.awaitingMachineReset || !hasLiveDeadline(r, q) else { return }
        fail(r, .touchesLiftedWithoutGesture, q)
    }

    private mutating func request(_ r: RecognizerSlot, _ p: PendingTransition, _ q: some ArbiterQuestions) {
        guard let m = member(r), m.state.isPossible else { return }
        if let existing = m.pending {
            switch (existing, p) {
            case let (.begin(reason), .beginThenEnd), let (.begin(reason), .recognize):
                records[r.rawValue].pending = .beginThenEnd(reason)
            default:
                break
            }
            return
        }
        evaluate(r, p, q)
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

    /// `forEachSharingTouches` as a list, for callers that change members as they go.
    private func sharingTouches(with r: RecognizerSlot) -> [(RecognizerSlot, TouchID)] {
        var list: [(RecognizerSlot, TouchID)] = []
        forEachSharingTouches(with: r) { list.append(($0, $1)) }
        return list
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
        // recognizer is on (a request, row 3: the same in every way): every recognizer that could matter is asked about, those
        // in a gesture or that have begun or ended. (A delegate's answer that would close a
        // cycle of explicit requirements is ignored.)
        if q.hasDynamicRequirements {
            for i in records.indices where i != r.rawValue && records[i].isAttached {
                let b = RecognizerSlot(rawValue: i)
                let s = records[i].state
                guard s.isActive || s.isEnded || (s.isPossible && isInvolved(b, q)) else { continue }
                guard !q.explicitlyRequires(r, toFail: b), q.requires(r, toFail: b),
                      !q.requirementPathExists(from: b, to: r) else { continue }
                if let found = consider(b) { return found }
            }
        }
        if let waitingOn { return .waiting(waitingOn) }
        return .clear
    }

    private mutating func evaluate(_ r: RecognizerSlot, _ p: PendingTransition, _ q: some ArbiterQuestions) {
        var preventer: RecognizerSlot?
        forEachSharingTouches(with: r) { other, _ in
            if preventer == nil, records[other.rawValue].state.isActive, !q.simultaneous(r, other),
               q.canPrevent(other, r) {
                preventer = other
            }
        }
        if let preventer {
            fail(r, .preventedBy(q.name(of: preventer)), q)
            return
        }
        switch requirementStatus(of: r, q) {
        case let .succeeded(b):
            fail(r, .requiredRecognizerSucceeded(q.name(of: b)), q)
        case let .waiting(b):
            records[r.rawValue].pending = p
            if !waitingList.contains(r) { waitingList.append(r) }
            actions.append(.waiting(r, reason: .waitingForFailure(of: q.name(of: b))))
        case .clear:
            commit(r, p, q)
        }
    }

    private mutating func commit(_ r: RecognizerSlot, _ p: PendingTransition, _ q: some ArbiterQuestions) {
        clearPending(r)
        if !q.viewShouldBegin(r) {
            fail(r, .viewDeclinedBegin, q)
            return
        }
        if !q.shouldBegin(r) {
            fail(r, .delegateDeclinedBegin, q)
            return
        }
        switch p {
        case let .recognize(reason):
            transition(r, to: .ended, reason: reason)
        case let .begin(reason), let .beginThenEnd(reason):
            transition(r, to: .began, reason: reason)
        }
        succeeded(r, q)
        actions.append(.performActions(r))
        if case .beginThenEnd = p, state(of: r)?.isActive == true {
            transition(r, to: .ended, reason: .touchesEnded)
            actions.append(.performActions(r))
        }
        if state(of: r)?.isFinal == true { finished(r) }
    }

    /// `r` began or recognized: the recognizers that required it to fail, exclusivity, and
    /// cancelsTouchesInView.
    private mutating func succeeded(_ r: RecognizerSlot, _ q: some ArbiterQuestions) {
        // The failures below may release recognizers that wait for them; none is released
        // until every recognizer this success excludes has been excluded (otherwise one
        // could begin here and be cancelled a moment later by the same success).
        let outermost = !resolving
        resolving = true
        defer {
            if outermost {
                resolving = false
                if needsResolve { resolvePending(q) }
            }
        }
        let name = q.name(of: r)
        for i in records.indices {
            let a = RecognizerSlot(rawValue: i)
            guard a != r, records[i].isAttached, records[i].state.isPossible, isInvolved(a, q) else { continue }
            // Required to fail by `a`, by require(toFail:) or a delegate (the same: a request, row 3;
            // a delegate's answer that would close a cycle counts only for a waiting `a`).
            if q.explicitlyRequires(a, toFail: r)
                || (q.hasDynamicRequirements && q.requires(a, toFail: r)
                    && (records[i].isWaiting || !q.requirementPathExists(from: r, to: a))) {
                fail(a, .requiredRecognizerSucceeded(name), q)
            }
        }
        for (other, touch) in sharingTouches(with: r) where isMember(other) {
            guard !q.simultaneous(r, other), q.canPrevent(r, other) else { continue }
            if isPossibleAndTracking(other, touch) {
                fail(other, .excludedBy(name), q)
            } else if records[other.rawValue].state.isActive && records[other.rawValue].touches.contains(touch) {
                cancel(other, .excludedBy(name))
            }
        }
        if q.cancelsTouchesInView(r), let m = member(r) {
            for touch in m.touches where arenaIndex(touch) != nil {
                actions.append(.cancelTouchInView(touch))
            }
        }
    }

    private mutating func fail(_ r: RecognizerSlot, _ reason: TransitionReason, _ q: some ArbiterQuestions) {
        guard state(of: r)?.isPossible == true else { return }
        clearPending(r)
        transition(r, to: .failed, reason: reason)
        finished(r)
        resolvePending(q)
    }

    private mutating func cancel(_ r: RecognizerSlot, _ reason: TransitionReason) {
        guard state(of: r)?.isActive == true else { return }
        transition(r, to: .cancelled, reason: reason)
        actions.append(.performActions(r))
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

    /// Resets `r` if it is in a final state and every touch of its sequence has lifted.
    mutating func endSequenceIfOver(_ r: RecognizerSlot) {
        guard let m = member(r), m.state.isFinal, m.touchesDown <= 0 || !m.isEnabled else { return }
        reset(r)
    }

    private mutating func clearPending(_ r: RecognizerSlot) {
        if records[r.rawValue].isWaiting {
            records[r.rawValue].pending = nil
            waitingList.removeAll { $0 == r }
        }
    }

    /// Weighs every waiting recognizer again after a failure that may have released it.
    private mutating func resolvePending(_ q: some ArbiterQuestions) {
        if resolving {
            needsResolve = true
            return
        }
        resolving = true
        repeat {
            needsResolve = false
            for r in waitingList {
                guard let m = member(r), let p = m.pending, m.state.isPossible else { continue }
                if case .waiting = requirementStatus(of: r, q) { continue }
                clearPending(r)
                evaluate(r, p, q)
            }
        } while needsResolve
        resolving = false
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
        actions.append(.reset(r))
    }

    private mutating func transition(_ r: RecognizerSlot, to state: GestureRecognizer.State,
                                     reason: TransitionReason) {
        let from = records[r.rawValue].state
        records[r.rawValue].state = state
        if state.isFinal { finalityGeneration &+= 1 }
        actions.append(.transition(r, from: from, to: state, reason: reason))
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
