/// Carrying out what arbitration decides (Arbiter.swift holds the rules): its actions are
/// done in the order it gave them, each transition recorded on the recognizer and traced,
/// actions performed, state machines reset, touches cancelled in their views. The engine is
/// arbitration's host: it answers its questions from the recognizers and their delegates.
extension GestureEngine {
    /// Hands `decision`, which recognizer `r` just made, to arbitration; then weighs the
    /// states recognizers set themselves meanwhile (`GestureRecognizer.state`).
    @inline(__always)
    func apply(_ decision: GestureDecision, to r: RecognizerSlot) {
        weigh(decision, of: r)
        if storage.hasStateRequests { applyStateRequests() }
    }

    /// The same for the decision a call into `r` returned, unless app code the call ran
    /// withdrew `r` (disabled it, removed it from its view) after `withdrawals`
    /// (`EngineStorage.withdrawals`) was read, before the call: it has failed or been
    /// cancelled since, and no longer hears its touches, so what it decided no longer counts
    /// (a lift that began from a recognizer just disabled would never end).
    /// (The common case, nothing withdrawn during the call, is one comparison inlined into
    /// the dispatch loop; the other is out of line.)
    @inline(__always)
    func apply(_ decision: GestureDecision, to r: RecognizerSlot, unlessWithdrawnSince withdrawals: Int) {
        if _fastPath(storage.withdrawals == withdrawals) {
            apply(decision, to: r)
        } else {
            apply(decision, to: r, withdrawnSince: withdrawals)
        }
    }

    @inline(never)
    private func apply(_ decision: GestureDecision, to r: RecognizerSlot, withdrawnSince withdrawals: Int) {
        apply(storage.table.records[r.rawValue].withdrawnAt > withdrawals ? .none : decision, to: r)
    }

    /// Hands `decision` to arbitration, and carries out what it comes to.
    @inline(__always)
    private func weigh(_ decision: GestureDecision, of r: RecognizerSlot) {
        markDirty(r)
        if case .none = decision {
        } else if case .change = decision {
            // The decision of almost every frame: to `RecognizerTable.change` directly.
            if let from = storage.table.change(r) { carryOutChange(r, from: from) }
        } else {
            arbitrate(decision, of: r)
        }
    }

    /// Hands a decision other than `none` and `change` to `decide` (out of line: the
    /// dispatch loop that calls `apply` stays small).
    @inline(never)
    private func arbitrate(_ decision: GestureDecision, of r: RecognizerSlot) {
        arbitrate { decide(decision, for: r) }
    }

    /// A recognizer set its own `state` (UIKit's way): weighed after the call that set it
    /// returns, or at once if no step is under way.
    func recognizerSetState(_ recognizer: GestureRecognizer) {
        guard let r = slot(of: recognizer) else {
            recognizer.requestedStates.removeAll()
            return
        }
        storage.stateRequests.append(r)
        storage.hasStateRequests = true
        if !storage.inStep {
            beginStep(at: storage.now)
            applyStateRequests()
            endStep()
        }
    }

    /// Turns the states recognizers set into the decisions they stand for, in the order they
    /// were set; transitions the state machine does not have are refused and reported. One
    /// loop: a state set while one is weighed (by an action) joins the end of the list.
    func applyStateRequests() {
        while !storage.stateRequests.isEmpty {
            let r = storage.stateRequests.removeFirst()
            guard let recognizer = storage.table.recognizer(r), !recognizer.requestedStates.isEmpty else { continue }
            let wanted = recognizer.requestedStates
            let reasons = recognizer.requestedReasons
            let decisions = recognizer.requestedDecisions
            recognizer.requestedStates.removeAll()
            for (index, state) in wanted.enumerated() {
                guard let from = storage.table.state(of: r) else { break }
                if let decision = decisions[index] {
                    // A built-in's own logic, run by `super` in a subclass's UIKit-shaped
                    // method: weighed exactly as the built-in's returned decision is.
                    weigh(decision, of: r)
                    continue
                }
                if state == .began, from == .possible {
                    // UIKit's rule: a recognizer that begins is continuous; it need not say so.
                    // Its record holds its kind from then on (its one home while attached).
                    storage.table.makeContinuous(r)
                }
                guard let kind = storage.table.member(r)?.kind else { break }
                if let decision = GestureDecision.settingState(state, from: from, kind: kind) {
                    weigh(reasons[index].map { decision.because($0) } ?? decision, of: r)
                } else {
                    ignored("\(recognizer.name) set its state to \(state.rawValue) while \(from.rawValue): "
                            + Self.refusal(setting: state, from: from, kind: kind))
                }
            }
        }
        storage.hasStateRequests = false
    }

    static func refusal(setting state: GestureRecognizer.State, from: GestureRecognizer.State,
                        kind: GestureRecognizer.Kind) -> String {
        if from.isFinal { return "it waits for its event sequence to end (refused)" }
        if state == .possible { return "only the engine resets a recognizer (refused)" }
        if kind == .discrete { return "a discrete recognizer goes possible → ended or failed (refused)" }
        return "a continuous recognizer goes possible → began or failed, then changed, then ended or cancelled (refused)"
    }

    /// Runs an arbitration entry point (`body`), then carries out the actions it returned, in
    /// order.
    ///
    /// While it runs, the recognizers stay as they are: a delegate asked a question, or an
    /// action or view callback called while the actions are carried out, that adds, removes,
    /// enables or disables a recognizer has its change made right after, in the same step
    /// (a recognizer removed or disabled then fails, or is cancelled if it had begun).
    @inline(__always)
    func arbitrate(_ body: () -> [ArbitrationAction]) {
        storage.arbitrationDepth += 1
        let actions = body()
        for action in actions { carryOut(action) }
        storage.arbitrationDepth -= 1
        runDeferredChanges()
    }

    /// A begun recognizer's change (`RecognizerTable.change`): recorded with the engine's
    /// reason, its actions performed, as `arbitrate` carries out actions.
    @inline(__always)
    private func carryOutChange(_ r: RecognizerSlot, from: GestureRecognizer.State) {
        storage.arbitrationDepth += 1
        recordTransition(r, from: from, to: .changed, reason: storage.changeReason)
        performActions(r)
        storage.arbitrationDepth -= 1
        runDeferredChanges()
    }

    /// Resets `r` if its sequence is over (`RecognizerTable.endSequenceIfOver`), as
    /// `arbitrate` carries out a reset.
    func endSequenceIfOver(_ r: RecognizerSlot) {
        guard storage.table.endSequenceIfOver(r) else { return }
        storage.arbitrationDepth += 1
        carryOut(.reset(r))
        storage.arbitrationDepth -= 1
        runDeferredChanges()
    }

    /// Makes the changes to the recognizers that waited for arbitration to be over.
    @inline(__always)
    private func runDeferredChanges() {
        if storage.arbitrationDepth == 0 && !storage.deferredChanges.isEmpty {
            let changes = storage.deferredChanges
            storage.deferredChanges.removeAll()
            for change in changes { change() }
        }
    }

    /// The recognizer shows its new state; the transition is traced.
    @inline(__always)
    private func recordTransition(_ r: RecognizerSlot, from: GestureRecognizer.State,
                                  to: GestureRecognizer.State, reason: TransitionReason) {
        storage.table.show(to, r)
        if storage.isTracing, let recognizer = storage.table.recognizer(r) {
            flushDeliveries()
            emit(.transition(.init(time: storage.now, recognizer: recognizer, from: from, to: to, reason: reason,
                                   location: recognizer.location(in: recognizer.view),
                                   values: recognizer.values, modifierFlags: storage.heldModifiers)))
        }
        if case .failed = to { storage.table.recognizer(r)?.didFail(because: reason, at: storage.now) }
    }

    /// Calls the recognizer's actions, if its slot is still taken.
    @inline(__always)
    private func performActions(_ r: RecognizerSlot) {
        if storage.table.handle(r) != nil { withRecognizer(r) { $0.performActions() } }
    }

    private func carryOut(_ action: ArbitrationAction) {
        switch action {
        case let .transition(r, from, to, reason):
            recordTransition(r, from: from, to: to, reason: reason)
        case let .changed(r, from):
            recordTransition(r, from: from, to: .changed, reason: storage.changeReason)
            performActions(r)
        case let .performActions(r):
            performActions(r)
        case let .reset(r):
            guard let recognizer = storage.table.recognizer(r) else { return }
            storage.table.machineWillReset(r)
            recognizer.requestedStates.removeAll()
            recognizer.reset()
            storage.table.machineWasReset(r)
            markDirty(r)
        case let .waiting(r, reason):
            guard storage.isTracing, let recognizer = storage.table.recognizer(r) else { return }
            emit(.waiting(time: storage.now, recognizer: recognizer, reason: reason))
        case let .cancelTouchInView(id):
            if let index = recordIndex(of: id) { cancelForView(index) }
        }
    }
}

/// The engine's answers to arbitration's questions, from the recognizer objects, their
/// views and their delegates: code of the app's, which may call any public API. Arbitration
/// asks them with nothing of the engine held (EngineStorage.swift).
extension GestureEngine: ArbitrationHost {
    var table: RecognizerTable {
        _read { yield storage.table }
        _modify { yield &storage.table }
    }

    func name(of r: RecognizerSlot) -> String {
        recognizer(r).name
    }

    func forEachExplicitRequirement(of r: RecognizerSlot, _ body: (RecognizerSlot) -> Bool) {
        for b in recognizer(r).failureRequirements {
            guard let s = slot(of: b) else { continue }
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

    var hasDynamicRequirements: Bool { storage.hasDynamicRequirements }

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
        withRecognizer(r) { $0.deadline }
    }

    func cancelsTouchesInView(_ r: RecognizerSlot) -> Bool {
        recognizer(r).cancelsTouchesInView
    }
}

extension GestureEngine {
    // What arbitration holds of one recognizer, for tests and invariant checks.

    /// The state `r` shows its actions, its delegate and the app, if it is attached to this
    /// engine: the state of the last transition the engine carried out, which arbitration
    /// runs ahead of. (One field, not the record: the engine reads it on its hot path, and
    /// the record's touches would be retained and released with it.)
    func shownState(of r: GestureRecognizer) -> GestureRecognizer.State? {
        slot(of: r).map { storage.table.shownState($0) }
    }

    /// The number of touches `r` shows (`numberOfTouches`), read as `shownState(of:)` is.
    func shownTouchCount(of r: GestureRecognizer) -> Int? {
        slot(of: r).map { storage.table.shown($0).numberOfTouches }
    }

    /// The touches of `r`'s current gesture (since its last reset), in order of arrival.
    func trackedTouches(of r: GestureRecognizer) -> [TouchID] {
        slot(of: r).flatMap { storage.table.member($0)?.touches } ?? []
    }

    /// The touches of `r`'s current sequence or, if it has none, of the sequence that ended
    /// at its last reset, as `r` shows them (`RecognizerTable.sequenceTouches` as of the last
    /// touch it joined or left, or its last reset): what `location(in:)` reads.
    func sequenceTouches(of r: GestureRecognizer) -> [TouchID] {
        slot(of: r).map { storage.table.shown($0).touches } ?? []
    }

    /// Whether `r` takes part in a gesture now (touches, a timer, or a waiting transition).
    func isInvolved(_ r: GestureRecognizer) -> Bool {
        guard let s = slot(of: r) else { return false }
        return isInvolved(s)
    }

    /// Whether `r` has decided on a transition that waits for another recognizer to fail.
    func hasPendingTransition(_ r: GestureRecognizer) -> Bool {
        slot(of: r).flatMap { storage.table.member($0)?.pending } != nil
    }
}
