/// How far a touch's events have reached the view it was hit-tested to.
enum ViewDelivery: Hashable {
    /// Nothing delivered yet (events may be held back).
    case notBegun
    /// The view has had `touchesBegan`; the touch's other events follow.
    case began
    /// A recognizer that cancels touches in view took the touch: nothing more reaches the
    /// view (it had `touchesCancelled` if it had begun).
    case cancelled
    /// The view had `touchesEnded` or `touchesCancelled`, or the touch has no view.
    case finished

    /// Whether the view may still receive events of the touch.
    var isOpen: Bool { self == .notBegun || self == .began }
}

/// Delivery to views: every touch reaches the view it was hit-tested to, after the
/// recognizers that see it and subject to them (SEMANTICS.md, "Delivery to views"):
///
/// | recognizer flag | while the recognizer is possible | when it recognizes | when it fails |
/// |---|---|---|---|
/// | `delaysTouchesBegan` | began and moved events are held back | held events are dropped | held events are delivered, in order |
/// | `delaysTouchesEnded` | the ended event is held back | the view gets `touchesCancelled` | the view gets the late `touchesEnded` |
/// | `cancelsTouchesInView` | — | the view gets `touchesCancelled`; nothing more | — |
///
/// Deliveries are collected and handed to the views in one call per run of touches with
/// the same view and phase: before any transition is traced, and at the end of every step.
extension GestureEngine {
    private func delaysBegan(_ index: Int) -> Bool {
        guard storage.recognizersDelayingBegan > 0 else { return false }
        let id = storage.records[index].touch.id
        guard let a = storage.table.arenaIndex(id) else { return false }
        for r in storage.table.arenas[a].members {
            if withRecognizer(r, { $0.delaysTouchesBegan }), storage.table.isPossibleAndTracking(r, id) { return true }
        }
        return false
    }

    private func delaysEnded(_ index: Int) -> Bool {
        let id = storage.records[index].touch.id
        guard let a = storage.table.arenaIndex(id) else { return false }
        for r in storage.table.arenas[a].members {
            if withRecognizer(r, { $0.delaysTouchesEnded }), storage.table.isPossibleAndTracking(r, id) { return true }
        }
        return false
    }

    func deliverToView(_ index: Int, _ touch: Touch) {
        guard storage.records[index].delivery.isOpen, storage.records[index].view != nil else { return }
        switch touch.phase {
        case .began, .moved:
            if !storage.records[index].held.isEmpty || delaysBegan(index) {
                storage.records[index].held.append(touch)
            } else {
                emitDelivery(index, touch)
            }
        case .ended:
            if !storage.records[index].held.isEmpty || delaysBegan(index) || delaysEnded(index) {
                storage.records[index].held.append(touch)
            } else {
                emitDelivery(index, touch)
            }
        case .cancelled:
            storage.records[index].held.removeAll()
            if storage.records[index].delivery == .began { emitDelivery(index, touch) }
            storage.records[index].delivery = .finished
        }
    }

    /// Delivers held events whose recognizers no longer hold them back. (Called for every
    /// record twice a step; almost none holds anything, so that test is made in place.)
    @inline(__always)
    func settle(_ index: Int) {
        if !storage.records[index].held.isEmpty { settleHeld(index) }
    }

    @inline(never)
    private func settleHeld(_ index: Int) {
        guard storage.records[index].delivery.isOpen, storage.records[index].view != nil else {
            storage.records[index].held.removeAll()
            return
        }
        var delivered = 0
        for touch in storage.records[index].held {
            if touch.phase == .ended {
                if delaysBegan(index) || delaysEnded(index) { break }
            } else if delaysBegan(index) {
                break
            }
            emitDelivery(index, touch)
            delivered += 1
        }
        storage.records[index].held.removeFirst(delivered)
    }

    /// A recognizer that cancels touches in view took the touch.
    func cancelForView(_ index: Int) {
        guard storage.records[index].delivery.isOpen else { return }
        storage.records[index].held.removeAll()
        let began = storage.records[index].delivery == .began
        storage.records[index].delivery = .cancelled
        if began, let view = storage.records[index].view {
            var touch = storage.records[index].touch
            touch.phase = .cancelled
            storage.pendingDeliveries.append((view, .cancelled, touch))
        }
    }

    private func emitDelivery(_ index: Int, _ touch: Touch) {
        switch touch.phase {
        case .began: storage.records[index].delivery = .began
        case .ended, .cancelled: storage.records[index].delivery = .finished
        case .moved: break
        }
        storage.pendingDeliveries.append((storage.records[index].view!, touch.phase, touch))
    }

    /// Hands the collected deliveries to their views, one call per run of distinct touches
    /// with the same view and phase.
    func flushDeliveries() {
        guard !storage.pendingDeliveries.isEmpty else { return }
        var i = 0
        let count = storage.pendingDeliveries.count
        while i < count {
            let view = storage.pendingDeliveries[i].view
            let phase = storage.pendingDeliveries[i].phase
            storage.deliveryBuffer.clearKeepingCapacity()
            while i < count, storage.pendingDeliveries[i].view === view, storage.pendingDeliveries[i].phase == phase,
                  !storage.deliveryBuffer.contains(where: { $0.id == storage.pendingDeliveries[i].touch.id }) {
                storage.deliveryBuffer.append(storage.pendingDeliveries[i].touch)
                i += 1
            }
            if storage.isTracing {
                emit(.delivery(.init(time: now, view: view, phase: phase, touches: storage.deliveryBuffer)))
            }
            view.deliver(phase, storage.deliveryBuffer)
        }
        storage.pendingDeliveries.clearKeepingCapacity()
    }
}
