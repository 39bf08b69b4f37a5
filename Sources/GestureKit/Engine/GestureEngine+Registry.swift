/// Roots and recognizers: every recognizer attached to a view under one of the engine's
/// roots has a slot in the engine's table (RecognizerTable.swift: the recognizer itself, its
/// handle, what it shows and its arbitration record). The engine works with slots; the
/// recognizer knows only its slot and its engine.
extension GestureEngine {
    // MARK: - Views

    /// Adds a root view in front of the existing ones.
    public func addRoot(_ view: View) {
        view.removeFromSuperview()
        roots.append(view)
        view.engine = self
    }

    public func removeRoot(_ view: View) {
        roots.removeAll { $0 === view }
        view.engine = nil
    }

    /// The front-most view containing `point` (screen coordinates) that takes touches.
    public func hitTest(_ point: Point) -> View? {
        for root in roots.reversed() {
            let p = root.convertFromSuperview(point)
            if let hit = root.hitTest(p) { return hit }
        }
        return nil
    }

    // MARK: - Slots

    /// Whether `r` is attached to this engine.
    func isRegistered(_ r: GestureRecognizer) -> Bool {
        storage.table.holds(r, at: r.slot)
    }

    /// `r`'s slot here, if it is attached to this engine.
    func slot(of r: GestureRecognizer) -> RecognizerSlot? {
        isRegistered(r) ? r.slot : nil
    }

    /// The recognizer in slot `r` (which must be taken).
    @inline(__always)
    func recognizer(_ r: RecognizerSlot) -> GestureRecognizer {
        storage.table.recognizer(r)!
    }

    /// Calls `body` with the recognizer in slot `r` without retaining it (its entry keeps it
    /// alive), for the dispatch loop's calls.
    @inline(__always)
    func withRecognizer<T>(_ r: RecognizerSlot, _ body: (GestureRecognizer) -> T) -> T {
        storage.table.handle(r)!.with(body)
    }

    func register(_ r: GestureRecognizer) {
        guard !isRegistered(r) else { return }
        if storage.arbitrationDepth > 0 {
            storage.deferredChanges.append { [unowned self] in register(r) }
            return
        }
        let s = storage.table.add(r, kind: r.kind, isEnabled: r.isEnabled)
        r.slot = s
        r.engine = self
        if r.delaysTouchesBegan { storage.recognizersDelayingBegan += 1 }
        if r.delegate != nil || (r as? BuiltInRecognizer)?.isSubclassed ?? true { storage.hasDynamicRequirements = true }
    }

    func unregister(_ r: GestureRecognizer) {
        guard isRegistered(r) else { return }
        if storage.arbitrationDepth > 0 {
            storage.deferredChanges.append { [unowned self] in unregister(r) }
            return
        }
        markWithdrawn(r.slot)
        storage.table.remove(r.slot)
        r.slot = .none
        r.engine = nil
        if r.delaysTouchesBegan { storage.recognizersDelayingBegan -= 1 }
    }

    /// `r`'s `delaysTouchesBegan` changed.
    func recognizer(_ r: GestureRecognizer, delaysTouchesBeganChangedTo delays: Bool) {
        guard slot(of: r) != nil else { return }
        storage.recognizersDelayingBegan += delays ? 1 : -1
    }

    /// `r` was enabled or disabled; disabling it mid-gesture fails it, or cancels it if it
    /// had begun.
    func recognizer(_ r: GestureRecognizer, enabledChangedTo enabled: Bool) {
        guard let s = slot(of: r) else { return }
        if storage.arbitrationDepth > 0 {
            storage.deferredChanges.append { [unowned self] in recognizer(r, enabledChangedTo: enabled) }
            return
        }
        storage.table.setEnabled(s, enabled)
        if !enabled { outsideChange(s, reason: .disabled) }
    }

    /// Counts a withdrawal of `r` (disabled, removed), for a call into it under way
    /// (`apply(_:to:unlessWithdrawnSince:)`).
    private func markWithdrawn(_ r: RecognizerSlot) {
        storage.withdrawals &+= 1
        storage.table.noteWithdrawn(r, count: storage.withdrawals)
    }

    /// `r` is about to be detached from its view: mid-gesture it fails, or is cancelled if it
    /// had begun.
    func recognizerWillBeRemoved(_ r: GestureRecognizer) {
        guard let s = slot(of: r) else { return }
        if storage.arbitrationDepth > 0 {
            storage.deferredChanges.append { [unowned self] in recognizerWillBeRemoved(r) }
            return
        }
        outsideChange(s, reason: .removedFromView)
    }

    private func outsideChange(_ r: RecognizerSlot, reason: TransitionReason) {
        markWithdrawn(r)
        let standalone = !storage.inStep
        if standalone { beginStep(at: now) }
        markDirty(r)
        arbitrate { withdraw(r, reason: reason) }
        if standalone { endStep() }
    }
}
