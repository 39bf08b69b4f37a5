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
        guard recognizersDelayingBegan > 0 else { return false }
        let id = records[index].touch.id
        guard let a = arbiter.arenaIndex(id) else { return false }
        for r in arbiter.arenas[a].members {
            if withRecognizer(r, { $0.delaysTouchesBegan }), arbiter.isPossibleAndTracking(r, id) { return true }
        }
        return false
    }

    private func delaysEnded(_ index: Int) -> Bool {
        let id = records[index].touch.id
        guard let a = arbiter.arenaIndex(id) else { return false }
        for r in arbiter.arenas[a].members {
            if withRecognizer(r, { $0.delaysTouchesEnded }), arbiter.isPossibleAndTracking(r, id) { return true }
        }
        return false
    }

    func deliverToView(_ index: Int, _ touch: Touch) {
        guard records[index].delivery.isOpen, records[index].view != nil else { return }
        switch touch.phase {
        case .began, .moved:
            if !records[index].held.isEmpty || delaysBegan(index) {
                records[index].held.append(touch)
            } else {
                emitDelivery(index, touch)
            }
        case .ended:
            if !records[index].held.isEmpty || delaysBegan(index) || delaysEnded(index) {
                records[index].held.append(touch)
            } else {
                emitDelivery(index, touch)
            }
        case .cancelled:
            records[index].held.removeAll()
            if records[index].delivery == .began { emitDelivery(index, touch) }
            records[index].delivery = .finished
        }
    }

    /// Delivers held events whose recognizers no longer hold them back.
    func settle(_ index: Int) {
        guard !records[index].held.isEmpty else { return }
        guard records[index].delivery.isOpen, records[index].view != nil else {
            records[index].held.removeAll()
            return
        }
        var delivered = 0
        for touch in records[index].held {
            if touch.phase == .ended {
                if delaysBegan(index) || delaysEnded(index) { break }
            } else if delaysBegan(index) {
                break
            }
            emitDelivery(index, touch)
            delivered += 1
        }
        records[index].held.removeFirst(delivered)
    }

    /// A recognizer that cancels touches in view took the touch.
    func cancelForView(_ index: Int) {
        guard records[index].delivery.isOpen else { return }
        records[index].held.removeAll()
        let began = records[index].delivery == .began
        records[index].delivery = .cancelled
        if began, let view = records[index].view {
            var touch = records[index].touch
            touch.phase = .cancelled
            pendingDeliveries.append((view, .cancelled, touch))
        }
    }

    private func emitDelivery(_ index: Int, _ touch: Touch) {
        switch touch.phase {
        case .began: records[index].delivery = .began
        case .ended, .cancelled: records[index].delivery = .finished
        case .moved: break
        }
        pendingDeliveries.append((records[index].view!, touch.phase, touch))
    }

    /// Hands the collected deliveries to their views, one call per run of distinct touches
    /// with the same view and phase.
    func flushDeliveries() {
        guard !pendingDeliveries.isEmpty else { return }
        var i = 0
        let count = pendingDeliveries.count
        while i < count {
            let view = pendingDeliveries[i].view
            let phase = pendingDeliveries[i].phase
            deliveryBuffer.clearKeepingCapacity()
            while i < count, pendingDeliveries[i].view === view, pendingDeliveries[i].phase == phase,
                  !deliveryBuffer.contains(where: { $0.id == pendingDeliveries[i].touch.id }) {
                deliveryBuffer.append(pendingDeliveries[i].touch)
                i += 1
            }
            if isTracing {
                emit(.delivery(.init(time: now, view: view, phase: phase, touches: deliveryBuffer)))
            }
            view.deliver(phase, deliveryBuffer)
        }
        pendingDeliveries.clearKeepingCapacity()
    }
}
