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
///
/// **How it runs.** Arbitration is pure logic over the recognizers' table
/// (RecognizerTable.swift), in swift-nio's manner: each entry point (`decide`, `withdraw`,
/// `endOfStep`; and on the table itself, which asks nothing, `change` and
/// `endSequenceIfOver`) changes the records and returns what the engine must do
/// (`ArbitrationAction`s, in order); the engine carries them out after it returns, so nothing
/// arbitration does comes back into it. Every decision but a begun recognizer's change goes
/// through `decide`, whose first step is the first table (`GestureDecision.effect(in:kind:)`).
/// It knows the recognizers only by their slots, and asks its host (the engine;
/// `ArbitrationHost`) what only the recognizers and their delegates can answer.
///
/// **The rule it keeps** (the engine's, EngineStorage.swift): it holds no access to the table
/// while it asks a question. It reads the table, lets go, asks, then changes the table: every
/// access is one expression on `table`, and the table is a value with no way to call out.
/// So an answer may read anything public, the engine's `nextDeadline` and the recognizers'
/// `state` included (what a recognizer shows is the engine's last carried-out transition,
/// `RecognizerRecord.Shown`, so it does not run ahead with arbitration), and may change the
/// recognizers: the engine defers those changes until arbitration is over. An inconsistency
/// between its records is a bug in it, checked by `assert` in debug builds.
///
/// How a decision runs, with no call ever coming back into arbitration:
/// - A request to leave `possible` gets one `Verdict` (`verdict(on:)`): fail with a reason,
///   wait on a recognizer, or commit. Rows 2–5 of the request table, in order.
/// - A commit makes the transition, then carries out the success's consequences, each
///   row of the success table a list (`requirers(of:)`, `excluded(by:)`, the touches to
///   take from their views), then the recognizer's actions (row 4).
/// - A failure may release recognizers that wait (row 5): it only sets `released`. The
///   waiting list is weighed again by one loop, `weighWaiting`, until a pass releases none.
///   An entry point runs it right after the failures it causes; a commit runs it after its
///   exclusions and before its actions, unless the commit is itself part of a pass (the
///   pass goes on instead).

/// What the engine must do when an arbitration entry point returns, in order.
enum ArbitrationAction: Hashable {
    /// Record the recognizer's new state and trace it.
    case transition(RecognizerSlot, from: GestureRecognizer.State, to: GestureRecognizer.State,
                    reason: TransitionReason)
    /// A begun recognizer is `changed`, from `from`: record it with the engine's own reason
    /// (the touches moved, or the pointer or a pen did) and perform its actions. (The engine
    /// takes a change to `RecognizerTable.change` directly; `decide` gives this for one.)
    case changed(RecognizerSlot, from: GestureRecognizer.State)
    /// Call the recognizer's actions.
    case performActions(RecognizerSlot)
    /// Reset the recognizer's state machine (its arbitration state is reset already).
    case reset(RecognizerSlot)
    /// The recognizer decided, but waits for another to fail; trace it.
    case waiting(RecognizerSlot, reason: TransitionReason)
    /// Stop delivering the touch to its view (cancelsTouchesInView).
    case cancelTouchInView(TouchID)
}

/// Where arbitration's table is, and what only the recognizers and their delegates can tell
/// it. The engine answers from the recognizer objects and their delegates (app code); the
/// arbitration tests answer from tables.
protocol ArbitrationHost: AnyObject {
    /// The recognizers' table. Arbitration reaches it one expression at a time, never across
    /// a question.
    var table: RecognizerTable { get set }
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
    /// has, `requires` is `explicitlyRequires`, and arbitration need not ask every recognizer.
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

extension ArbitrationHost {
    typealias PendingTransition = RecognizerRecord.PendingTransition

    // MARK: - Entry points

    /// Weighs `decision`, which `r` just made (`GestureDecision.effect`, the first table).
    func decide(_ decision: GestureDecision, for r: RecognizerSlot) -> [ArbitrationAction] {
        guard table.isMember(r) else { return [] }
        let state = table.records[r.rawValue].state, kind = table.records[r.rawValue].kind
        switch decision.effect(in: state, kind: kind) {
        case .none:
            break
        case let .request(p):
            request(r, p)
        case .change:
            if let from = table.change(r) { return [.changed(r, from: from)] }
        case let .end(reason):
            table.end(r, reason)
        case let .fail(reason):
            table.fail(r, reason)
            weighWaiting()
        case let .cancel(reason):
            table.cancel(r, reason)
        }
        return table.takeActions()
    }

    /// Something outside the gesture took `r` away (disabled, removed from its view): it
    /// fails, or is cancelled if it had begun.
    func withdraw(_ r: RecognizerSlot, reason: TransitionReason) -> [ArbitrationAction] {
        guard let m = table.member(r) else { return [] }
        if m.state.isFinal {
            table.reset(r)
        } else if m.state.isPossible && isInvolved(r) {
            table.fail(r, reason)
            weighWaiting()
        } else if m.state.isActive {
            table.cancel(r, reason)
        }
        // It no longer hears its touches lift: its sequence ends here.
        if table.state(of: r)?.isFinal == true { table.reset(r) }
        return table.takeActions()
    }

    /// The end of a step: a recognizer still possible whose touches have all lifted, with no
    /// timer and no transition waiting, has seen everything it will see: it fails.
    func endOfStep(_ r: RecognizerSlot) -> [ArbitrationAction] {
        guard let m = table.member(r), m.state.isPossible, !m.isWaiting, !m.touches.isEmpty,
              m.touchesDown == 0, m.awaitingMachineReset || !hasLiveDeadline(r) else { return [] }
        table.fail(r, .touchesLiftedWithoutGesture)
        weighWaiting()
        return table.takeActions()
    }

    // MARK: - Questions about one recognizer

    /// Whether `r` waits for a deadline that has not fired yet (`RecognizerRecord.Timer.live`).
    func hasLiveDeadline(_ r: RecognizerSlot) -> Bool {
        let deadline = deadline(of: r)
        return table.records[r.rawValue].timer.live(deadline) != nil
    }

    /// Whether `r` takes part in a gesture now: it has seen touches since its last reset, or
    /// waits on a timer or another recognizer.
    func isInvolved(_ r: RecognizerSlot) -> Bool {
        guard let m = table.member(r) else { return false }
        return !m.touches.isEmpty || m.isWaiting || (!m.awaitingMachineReset && hasLiveDeadline(r))
    }

    // MARK: - Requests

    /// A request at the top of an entry point: merged with a transition already waiting
    /// (row 1), or given its verdict and carried out.
    private func request(_ r: RecognizerSlot, _ p: PendingTransition) {
        if table.mergeWithWaiting(r, p) { return }
        switch verdict(on: r) {
        case let .fail(reason):
            table.fail(r, reason)
            weighWaiting()
        case let .wait(on: b):
            let reason = TransitionReason.waitingForFailure(of: name(of: b))
            table.wait(r, p, reason: reason)
        case .commit:
            commit(r, p)
            weighWaiting()
            performSuccess(r, p)
        }
    }

    /// Row 5 of the success table: weighs every waiting recognizer again, pass after pass,
    /// while a pass's failures may have released one. The one loop that does; nothing it
    /// calls runs it again.
    private func weighWaiting() {
        assert(!table.weighing, "Internal inconsistency: the waiting recognizers are weighed inside their own pass")
        table.weighing = true
        defer { table.weighing = false }
        while table.released {
            table.released = false
            for r in table.waitingList {
                guard let m = table.member(r), let p = m.pending, m.state.isPossible else { continue }
                if case .waiting = requirementStatus(of: r) { continue }
                table.clearPending(r)
                switch verdict(on: r) {
                case let .fail(reason):
                    table.fail(r, reason)
                case let .wait(on: b):
                    let reason = TransitionReason.waitingForFailure(of: name(of: b))
                    table.wait(r, p, reason: reason)
                case .commit:
                    commit(r, p)
                    performSuccess(r, p)
                }
            }
        }
    }

    /// Calls `body` with every other recognizer tracking one of `r`'s touches (with the
    /// touch): the members of the touch's arena that track it while the engine holds the
    /// touch, and once it has let it go (lifted, nothing held for its view), every member
    /// that still tracks it. Exclusivity so never depends on how long the engine keeps its
    /// records of touches. Each is read from the table afresh, after `body` asked its
    /// questions about the one before.
    private func forEachSharingTouches(with r: RecognizerSlot, _ body: (RecognizerSlot, TouchID) -> Void) {
        guard let m = table.member(r) else { return }
        for touch in m.touches {
            if table.arenaIndex(touch) != nil {
                for other in table.members(of: touch) where other != r && table.isMember(other)
                    && table.records[other.rawValue].touches.contains(touch) {
                    body(other, touch)
                }
            } else {
                var i = 0
                while i < table.records.count {
                    if i != r.rawValue && table.records[i].isAttached && table.records[i].touches.contains(touch) {
                        body(RecognizerSlot(rawValue: i), touch)
                    }
                    i += 1
                }
            }
        }
    }

    /// Whether `a` must wait for `b` to fail by a delegate's answer or an override, beyond
    /// its `require(toFail:)` list (a request, row 3: the same in every way). An answer that
    /// would close a cycle of `require(toFail:)` is ignored, unless `a` already waits (then
    /// `b`'s success ends its wait as any requirement's would).
    private func requiresByAnswer(_ a: RecognizerSlot, toFail b: RecognizerSlot, whileWaiting: Bool) -> Bool {
        hasDynamicRequirements && !explicitlyRequires(a, toFail: b) && requires(a, toFail: b)
            && (whileWaiting || !requirementPathExists(from: b, to: a))
    }

    private func requirementStatus(of r: RecognizerSlot) -> RequirementStatus {
        var waitingOn: RecognizerSlot?
        func consider(_ b: RecognizerSlot) -> RequirementStatus? {
            guard b != r, let mb = table.member(b) else { return nil }
            if mb.state.isActive || mb.state.isEnded { return .succeeded(b) }
            if mb.state.isPossible && waitingOn == nil && isInvolved(b) { waitingOn = b }
            return nil
        }
        var status: RequirementStatus?
        forEachExplicitRequirement(of: r) { b in
            status = consider(b)
            return status == nil
        }
        if let status { return status }
        // The delegates' requirements count as require(toFail:) does, whatever view the other
        // recognizer is on: every recognizer that could matter is asked about, those in a
        // gesture or that have begun or ended.
        if hasDynamicRequirements {
            var i = 0
            while i < table.records.count {
                let b = RecognizerSlot(rawValue: i)
                i += 1
                guard b != r, let mb = table.member(b) else { continue }
                let s = mb.state
                guard s.isActive || s.isEnded || (s.isPossible && isInvolved(b)),
                      requiresByAnswer(r, toFail: b, whileWaiting: false) else { continue }
                if let found = consider(b) { return found }
            }
        }
        if let waitingOn { return .waiting(waitingOn) }
        return .clear
    }

    /// The verdict on `r`'s request: rows 2 to 5 of the request table, asked in that order.
    private func verdict(on r: RecognizerSlot) -> Verdict {
        var preventer: RecognizerSlot?
        forEachSharingTouches(with: r) { other, _ in
            if preventer == nil, table.records[other.rawValue].state.isActive, !simultaneous(r, other),
               canPrevent(other, r) {
                preventer = other
            }
        }
        if let preventer { return .fail(.preventedBy(name(of: preventer))) }
        switch requirementStatus(of: r) {
        case let .succeeded(b): return .fail(.requiredRecognizerSucceeded(name(of: b)))
        case let .waiting(b): return .wait(on: b)
        case .clear: break
        }
        if !viewShouldBegin(r) { return .fail(.viewDeclinedBegin) }
        if !shouldBegin(r) { return .fail(.delegateDeclinedBegin) }
        return .commit
    }

    /// Row 6, first half: `r` makes its transition, and its success's consequences are
    /// carried out (the success table, rows 1–3).
    private func commit(_ r: RecognizerSlot, _ p: PendingTransition) {
        table.clearPending(r)
        switch p {
        case let .recognize(reason):
            table.transition(r, to: .ended, reason: reason)
        case let .begin(reason), let .beginThenEnd(reason):
            table.transition(r, to: .began, reason: reason)
        }
        // Each row's list is made when the rows before it are carried out: a recognizer row 1
        // failed and reset tracks no touch any more, and row 2 does not ask about it.
        let name = name(of: r)
        for a in requirers(of: r) {
            table.fail(a, .requiredRecognizerSucceeded(name))
        }
        for (other, touch) in excluded(by: r) {
            // Checked again here: an earlier entry for another of its touches may have settled it.
            if table.isPossibleAndTracking(other, touch) {
                table.fail(other, .excludedBy(name))
            } else if table.records[other.rawValue].state.isActive && table.records[other.rawValue].touches.contains(touch) {
                table.cancel(other, .excludedBy(name))
            }
        }
        if cancelsTouchesInView(r), let m = table.member(r) {
            for touch in m.touches where table.arenaIndex(touch) != nil { table.cancelTouchInView(touch) }
        }
    }

    /// Row 6, second half (the success table, row 4): `r` performs its actions; a transition
    /// that waited as began-then-ended ends now.
    private func performSuccess(_ r: RecognizerSlot, _ p: PendingTransition) {
        table.performActions(r)
        if case .beginThenEnd = p, table.state(of: r)?.isActive == true {
            table.transition(r, to: .ended, reason: .touchesEnded)
            table.performActions(r)
        }
        if table.state(of: r)?.isFinal == true { table.finished(r) }
    }

    /// Row 1 of the success table: the involved recognizers, still possible, that require `r`
    /// to fail (`require(toFail:)` or an answer), in slot order.
    private func requirers(of r: RecognizerSlot) -> [RecognizerSlot] {
        var list: [RecognizerSlot] = []
        var i = 0
        while i < table.records.count {
            let a = RecognizerSlot(rawValue: i)
            i += 1
            guard a != r, let m = table.member(a), m.state.isPossible, isInvolved(a) else { continue }
            if explicitlyRequires(a, toFail: r)
                || requiresByAnswer(a, toFail: r, whileWaiting: m.isWaiting) {
                list.append(a)
            }
        }
        return list
    }

    /// Row 2 of the success table: each recognizer tracking one of `r`'s touches, with the
    /// touch, that is not simultaneous with `r` and that `r` may prevent.
    private func excluded(by r: RecognizerSlot) -> [(RecognizerSlot, TouchID)] {
        var list: [(RecognizerSlot, TouchID)] = []
        forEachSharingTouches(with: r) { other, touch in
            if !simultaneous(r, other), canPrevent(r, other) { list.append((other, touch)) }
        }
        return list
    }
}

/// Whether a recognizer's requirements let it leave `possible` (the request table, rows 3–4).
private enum RequirementStatus {
    case clear
    case waiting(RecognizerSlot)
    case succeeded(RecognizerSlot)
}

/// The verdict on a request to leave `possible` (rows 2–5 of the request table).
private enum Verdict: Hashable {
    /// The recognizer fails (rows 2, 3, 5).
    case fail(TransitionReason)
    /// It waits for this recognizer to fail (row 4).
    case wait(on: RecognizerSlot)
    /// It makes the transition (row 6).
    case commit
}
