/// Carrying out what the arbiter decides (Arbiter.swift holds the rules): its actions are
/// done in the order it gave them, each transition recorded on the recognizer and traced,
/// actions performed, state machines reset, touches cancelled in their views.
extension GestureEngine {
    /// Hands `decision`, which recognizer `r` just made, to the arbiter; then weighs the
    /// states recognizers set themselves meanwhile (`GestureRecognizer.state`).
    @inline(__always)
    func apply(_ decision: GestureDecision, to r: RecognizerSlot) {
        markDirty(r)
        if case .none = decision {
        } else if case .change = decision {
            // The decision of almost every frame: to `Arbiter.change` directly.
            arbitrate { a, _ in a.change(r) }
        } else {
            arbitrate(decision, of: r)
        }
        if hasStateRequests { applyStateRequests() }
    }

    /// Hands a decision other than `none` and `change` to `Arbiter.decide` (out of line: the
    /// dispatch loop that calls `apply` stays small).
    @inline(never)
    private func arbitrate(_ decision: GestureDecision, of r: RecognizerSlot) {
        arbitrate { $0.decide(decision, for: r, $1) }
    }

    /// A recognizer set its own `state` (UIKit's way): weighed after the call that set it
    /// returns, or at once if no step is under way.
    func recognizerSetState(_ recognizer: GestureRecognizer) {
        guard let r = slot(of: recognizer) else {
            recognizer.requestedStates.removeAll()
            return
        }
        stateRequests.append(r)
        hasStateRequests = true
        if !inStep {
            beginStep(at: now)
            applyStateRequests()
            endStep()
        }
    }

    /// Turns the states recognizers set into the decisions they stand for, in order;
    /// transitions the state machine does not have are refused and reported.
    func applyStateRequests() {
        hasStateRequests = false
        while !stateRequests.isEmpty {
            let r = stateRequests.removeFirst()
            guard let recognizer = slots[r.rawValue].recognizer, !recognizer.requestedStates.isEmpty else { continue }
            let wanted = recognizer.requestedStates
            let reasons = recognizer.requestedReasons
            let decisions = recognizer.requestedDecisions
            recognizer.requestedStates.removeAll()
            for (index, state) in wanted.enumerated() {
                guard let from = arbiter.state(of: r) else { break }
                if let decision = decisions[index] {
                    // A built-in's own logic, run by `super` in a subclass's UIKit-shaped
                    // method: weighed exactly as the built-in's returned decision is.
                    apply(decision, to: r)
                    continue
                }
                if state == .began, from == .possible {
                    // UIKit's rule: a recognizer that begins is continuous; it need not say so.
                    // Its record holds its kind from then on (its one home while attached).
                    arbiter.makeContinuous(r)
                }
                guard let kind = arbiter.member(r)?.kind else { break }
                if let decision = GestureDecision.settingState(state, from: from, kind: kind) {
                    apply(reasons[index].map { decision.because($0) } ?? decision, to: r)
                } else {
                    ignored("\(recognizer.name) set its state to \(state.rawValue) while \(from.rawValue): "
                            + Self.refusal(setting: state, from: from, kind: kind))
                }
            }
        }
    }

    static func refusal(setting state: GestureRecognizer.State, from: GestureRecognizer.State,
                        kind: GestureRecognizer.Kind) -> String {
        if from.isFinal { return "it waits for its event sequence to end (refused)" }
        if state == .possible { return "only the engine resets a recognizer (refused)" }
        if kind == .discrete { return "a discrete recognizer goes possible → ended or failed (refused)" }
        return "a continuous recognizer goes possible → began or failed, then changed, then ended or cancelled (refused)"
    }

    /// Runs `body` on the arbiter, then carries out the actions it returned, in order.
    func arbitrate(_ body: (inout Arbiter, EngineQuestions) -> [Arbiter.Action]) {
        arbitrate { .actions(body(&$0, $1)) }
    }

    /// Runs `body` on the arbiter, then carries out what it came to: a change, or the actions
    /// it returned, in order.
    ///
    /// While it runs, the recognizers stay as they are: a delegate asked a question, or an
    /// action or view callback called while the actions are carried out, that adds, removes,
    /// enables or disables a recognizer has its change made right after, in the same step
    /// (a recognizer removed or disabled then fails, or is cancelled if it had begun).
    @inline(__always)
    func arbitrate(_ body: (inout Arbiter, EngineQuestions) -> Arbiter.Outcome) {
        arbitrationDepth += 1
        switch body(&arbiter, EngineQuestions(engine: self)) {
        case let .changed(r, from):
            recordTransition(r, from: from, to: .changed, reason: changeReason)
            performActions(r)
        case let .actions(actions):
            for action in actions { carryOut(action) }
        }
        arbitrationDepth -= 1
        runDeferredChanges()
    }

    /// Makes the changes to the recognizers that waited for arbitration to be over.
    @inline(__always)
    private func runDeferredChanges() {
        if arbitrationDepth == 0 && !deferredChanges.isEmpty {
            let changes = deferredChanges
            deferredChanges.removeAll()
            for change in changes { change() }
        }
    }

    /// The recognizer shows its new state; the transition is traced.
    @inline(__always)
    private func recordTransition(_ r: RecognizerSlot, from: GestureRecognizer.State,
                                  to: GestureRecognizer.State, reason: TransitionReason) {
        slots[r.rawValue].shown.state = to
        guard isTracing, let recognizer = slots[r.rawValue].recognizer else { return }
        flushDeliveries()
        emit(.transition(.init(time: now, recognizer: recognizer, from: from, to: to, reason: reason,
                               location: recognizer.location(in: recognizer.view),
                               values: recognizer.values, modifierFlags: heldModifiers)))
    }

    /// Calls the recognizer's actions, if its slot is still taken.
    @inline(__always)
    private func performActions(_ r: RecognizerSlot) {
        if slots[r.rawValue].handle != nil { withRecognizer(r) { $0.performActions() } }
    }

    private func carryOut(_ action: Arbiter.Action) {
        switch action {
        case let .transition(r, from, to, reason):
            recordTransition(r, from: from, to: to, reason: reason)
        case let .performActions(r):
            performActions(r)
        case let .reset(r):
            guard let recognizer = slots[r.rawValue].recognizer else { return }
            arbiter.machineWillReset(r)
            slots[r.rawValue].shown = RecognizerRecord.Shown(touches: arbiter.sequenceTouches(r))
            recognizer.requestedStates.removeAll()
            recognizer.reset()
            arbiter.machineWasReset(r)
            markDirty(r)
        case let .waiting(r, reason):
            guard isTracing, let recognizer = slots[r.rawValue].recognizer else { return }
            emit(.waiting(time: now, recognizer: recognizer, reason: reason))
        case let .cancelTouchInView(id):
            if let index = recordIndex(of: id) { cancelForView(index) }
        }
    }
}

/// The engine's answers to the arbiter's questions, from the recognizer objects and their
/// delegates.
///
/// It holds its engine `unowned(unsafe)`: it is made by the engine for one arbitration and
/// lives no longer, and the engine is running that arbitration, so it is alive. Measured
/// with Benchmarks/Sources/profile-dispatch under callgrind: a checked `unowned` reference
/// takes a frame from 3,569 instructions to 3,716 (two touches, eight recognizers panning).
struct EngineQuestions: ArbiterQuestions {
    #if GESTUREKIT_CHECKED_ACCESS
    unowned let engine: GestureEngine
    #else
    unowned(unsafe) let engine: GestureEngine
    #endif

    private func recognizer(_ r: RecognizerSlot) -> GestureRecognizer {
        engine.recognizer(r)
    }

    func name(of r: RecognizerSlot) -> String {
        recognizer(r).name
    }

    func forEachExplicitRequirement(of r: RecognizerSlot, _ body: (RecognizerSlot) -> Bool) {
        for b in recognizer(r).failureRequirements {
            guard let s = engine.slot(of: b) else { continue }
            if !body(s) { return }
        }
    }

    func explicitlyRequires(_ a: RecognizerSlot, toFail b: RecognizerSlot) -> Bool {
        let rb = recognizer(b)
        return recognizer(a).failureRequirements.contains { $0 === rb }
    }

    func requires(_ a: RecognizerSlot, toFail b: RecognizerSlot) -> Bool {
        let ra = recognizer(a), rb = recognizer(b)
        return ra.failureRequirements.contains { $0 === rb }
            || (ra.delegate?.gestureRecognizer(ra, shouldRequireFailureOf: rb) ?? false)
            || (rb.delegate?.gestureRecognizer(rb, shouldBeRequiredToFailBy: ra) ?? false)
            || ra.shouldRequireFailure(of: rb) || rb.shouldBeRequiredToFail(by: ra)
    }

    var hasDynamicRequirements: Bool { engine.hasDynamicRequirements }

    func requirementPathExists(from a: RecognizerSlot, to b: RecognizerSlot) -> Bool {
        recognizer(a).requirementPath(to: recognizer(b)) != nil
    }

    func simultaneous(_ a: RecognizerSlot, _ b: RecognizerSlot) -> Bool {
        let ra = recognizer(a), rb = recognizer(b)
        return ra.isSimultaneous(with: rb)
            || (ra.delegate?.gestureRecognizer(ra, shouldRecognizeSimultaneouslyWith: rb) ?? false)
            || (rb.delegate?.gestureRecognizer(rb, shouldRecognizeSimultaneouslyWith: ra) ?? false)
    }

    func canPrevent(_ a: RecognizerSlot, _ b: RecognizerSlot) -> Bool {
        let ra = recognizer(a), rb = recognizer(b)
        return ra.canPrevent(rb) && rb.canBePrevented(by: ra)
    }

    func viewShouldBegin(_ r: RecognizerSlot) -> Bool {
        let recognizer = recognizer(r)
        return recognizer.view?.gestureRecognizerShouldBegin(recognizer) ?? true
    }

    func shouldBegin(_ r: RecognizerSlot) -> Bool {
        let recognizer = recognizer(r)
        return recognizer.delegate?.gestureRecognizerShouldBegin(recognizer) ?? true
    }

    func deadline(of r: RecognizerSlot) -> Instant? {
        engine.withRecognizer(r) { $0.deadline }
    }

    func cancelsTouchesInView(_ r: RecognizerSlot) -> Bool {
        recognizer(r).cancelsTouchesInView
    }
}

extension GestureEngine {
    // What arbitration holds of one recognizer, for tests and invariant checks.

    /// The state `r` shows its actions, its delegate and the app, if it is attached to this
    /// engine. Read from `shown`, never from `arbiter`: a delegate reads it while arbitration
    /// holds the arbiter. (One field, not the record: the engine reads it on its hot path, and
    /// the record's touches would be retained and released with it.)
    func shownState(of r: GestureRecognizer) -> GestureRecognizer.State? {
        slot(of: r).map { slots[$0.rawValue].shown.state }
    }

    /// The number of touches `r` shows (`numberOfTouches`), read as `shownState(of:)` is.
    func shownTouchCount(of r: GestureRecognizer) -> Int? {
        slot(of: r).map { slots[$0.rawValue].shown.numberOfTouches }
    }

    /// The touches of `r`'s current gesture (since its last reset), in order of arrival.
    func trackedTouches(of r: GestureRecognizer) -> [TouchID] {
        slot(of: r).flatMap { arbiter.member($0)?.touches } ?? []
    }

    /// The touches of `r`'s current sequence or, if it has none, of the sequence that ended
    /// at its last reset, as `r` shows them (`Arbiter.sequenceTouches` as of the last touch
    /// it joined or left, or its last reset): read from `shown`, never from `arbiter`, since
    /// `location(in:)` reads them, from a delegate too.
    func sequenceTouches(of r: GestureRecognizer) -> [TouchID] {
        slot(of: r).map { slots[$0.rawValue].shown.touches } ?? []
    }

    /// Whether `r` takes part in a gesture now (touches, a timer, or a waiting transition).
    func isInvolved(_ r: GestureRecognizer) -> Bool {
        guard let s = slot(of: r) else { return false }
        return arbiter.isInvolved(s, EngineQuestions(engine: self))
    }

    /// Whether `r` has decided on a transition that waits for another recognizer to fail.
    func hasPendingTransition(_ r: GestureRecognizer) -> Bool {
        slot(of: r).flatMap { arbiter.member($0)?.pending } != nil
    }
}
