/// The pointer: its motion drives the hover recognizers, its buttons are a touch of type
/// `indirectPointer` at the pointer, its scrolls are scroll sequences that drive the pans
/// allowing them (`PointerEvent` lists the rules for input that makes no sense).
///
/// **The buttons' rule** (REPLAY.md, "Buttons"; UIKit's one pointer touch with a
/// `buttonMask`): the first of the primary, secondary and tertiary buttons pressed begins the
/// pointer's touch, its `buttonMask` that button; another pressed meanwhile joins the mask;
/// the touch ends when the last is released. Which recognizers see it is decided at the
/// press, by the buttons then (tap and long press: `buttonMaskRequired`; the others: the
/// primary only). Side and extra buttons are no touch.
extension GestureEngine {
    /// What the engine knows of the pointer.
    struct PointerState {
        /// Where the pointer is (screen points); nil before the first pointer event.
        var location: Point?
        /// The device whose buttons are down, if any, and which they are.
        var buttonDevice: InputDeviceID?
        var buttons: ButtonMask = []
        /// Devices removed: their later events are ignored.
        var removed: [InputDeviceID] = []
        /// The device whose pointer or pen the hover recognizers follow (the last to move).
        var hoverDevice: InputDeviceID?
        /// The wheel's scroll sequence under way: its device and when it ends.
        var wheelDevice: InputDeviceID?
        var wheelDeadline: Instant?
        /// The frame that carries the button's touch, reused.
        var frame = TouchFrame(time: .zero, deviceKind: .pointer, changes: [])
    }

    /// The source id of the touch a pointer's primary button makes.
    static let pointerButtonSourceID = -2

    /// Where the pointer is, in screen points (nil before the first pointer event).
    public var pointerLocation: Point? { storage.pointer.location }

    /// Handles one pointer event: hover, the button's touch, scrolling. Deadlines earlier
    /// than the event fire first.
    public func send(_ event: PointerEvent) {
        inputStep(.pointer(event), at: event.time) { dispatch(event) }
    }

    private func dispatch(_ event: PointerEvent) {
        if storage.pointer.removed.contains(event.device) {
            ignored("storage.pointer \(event.kind.rawValue) of \(event.device), which was removed: ignored")
            return
        }
        guard event.location.isFinite else {
            ignored("storage.pointer \(event.kind.rawValue) of \(event.device) at a non-finite location: ignored")
            return
        }
        storage.pointer.location = event.location
        switch event.kind {
        case .motion:
            if storage.pointer.buttonDevice == event.device {
                sendButtonFrame(.moved, event)
            } else if storage.pointer.buttonDevice == nil {
                updateHover(at: event.location, device: event.device, pen: nil)
            }
        case .button:
            guard let button = ButtonMask(evdevCode: event.button) else { return }
            if event.pressed {
                if let down = storage.pointer.buttonDevice {
                    guard down == event.device, !storage.pointer.buttons.contains(button) else {
                        ignored("button \(button) pressed on \(event.device) while \(storage.pointer.buttons) \(down == event.device ? "is" : "of \(down) is") down: ignored")
                        return
                    }
                    // Another button joins the touch under way.
                    storage.pointer.buttons.insert(button)
                    setButtonMask(storage.pointer.buttons, device: event.device)
                    return
                }
                endHover()
                storage.pointer.buttonDevice = event.device
                storage.pointer.buttons = button
                sendButtonFrame(.began, event)
            } else {
                guard storage.pointer.buttonDevice == event.device, storage.pointer.buttons.contains(button) else {
                    ignored("button \(button) released on \(event.device) that was never pressed: ignored")
                    return
                }
                storage.pointer.buttons.remove(button)
                guard storage.pointer.buttons.isEmpty else {
                    setButtonMask(storage.pointer.buttons, device: event.device)
                    return
                }
                storage.pointer.buttonDevice = nil
                sendButtonFrame(.ended, event)
                updateHover(at: event.location, device: event.device, pen: nil)
            }
        case .scroll:
            scroll(event)
        case .leave:
            if storage.pointer.buttonDevice == event.device {
                storage.pointer.buttonDevice = nil
                storage.pointer.buttons = []
                sendButtonFrame(.cancelled, event)
            }
            endHover(of: event.device, reason: .pointerLeft)
        }
    }

    /// The pointer's touch now has `buttons` pressed (its `buttonMask`).
    private func setButtonMask(_ buttons: ButtonMask, device: InputDeviceID) {
        for i in storage.records.indices where !storage.records[i].lifted && storage.records[i].touch.device == device
            && storage.records[i].touch.sourceID == GestureEngine.pointerButtonSourceID {
            storage.records[i].touch.buttonMask = buttons
        }
    }

    private func sendButtonFrame(_ phase: TouchPhase, _ event: PointerEvent) {
        var frame = storage.pointer.frame
        storage.pointer.frame.changes = []
        frame.time = event.time
        frame.device = event.device
        frame.buttonMask = storage.pointer.buttons
        frame.changes.clearKeepingCapacity()
        frame.changes.append(TouchChange(sourceID: GestureEngine.pointerButtonSourceID, phase: phase,
                                         location: event.location))
        dispatch(frame)
        storage.pointer.frame = frame
    }

    // MARK: - Scrolling

    private func scrollUnderWay(_ device: InputDeviceID, _ kind: TouchpadGestureEvent.Kind) -> Bool {
        storage.records.contains { !$0.lifted && $0.gestureKind == kind && $0.touch.device == device }
    }

    /// A wheel turned with shift held scrolls sideways (GTK's and the browsers' convention):
    /// its vertical detents drive x, a forward turn a positive x.
    private func scroll(_ event: PointerEvent) {
        let kind: TouchpadGestureEvent.Kind = event.scrollType.contains(.continuous) ? .scroll : .wheel
        let underWay = scrollUnderWay(event.device, kind)
        let delta = kind == .wheel && storage.heldModifiers.contains(.shift) ? Point(x: event.delta.y, y: event.delta.x) : event.delta
        var gesture = TouchpadGestureEvent(kind: kind, phase: underWay ? .update : .begin, time: event.time,
                                           device: event.device, fingers: 0, location: event.location,
                                           delta: delta)
        if event.scrollStop {
            guard underWay else {
                ignored("scroll stop of \(event.device) with no scroll under way: ignored")
                return
            }
            gesture.phase = .end
        } else if event.delta == .zero {
            ignored("scroll of \(event.device) by nothing: ignored")
            return
        }
        dispatch(gesture)
        if kind == .wheel {
            storage.pointer.wheelDevice = event.device
            storage.pointer.wheelDeadline = event.time + GestureDefaults.wheelScrollEndPause
        }
    }

    /// Ends the wheel's scroll sequence: its pause has passed.
    private func endWheelScroll(at time: Instant) {
        guard let device = storage.pointer.wheelDevice else { return }
        storage.pointer.wheelDeadline = nil
        storage.pointer.wheelDevice = nil
        beginStep(at: max(time, now))
        if scrollUnderWay(device, .wheel) {
            dispatch(TouchpadGestureEvent(kind: .wheel, phase: .end, time: time, device: device, fingers: 0,
                                          location: storage.pointer.location ?? .zero))
        }
        endStep()
    }

    /// The earliest deadline of the engine: a recognizer's, or the end of a wheel's scroll.
    func nextDeadlineIncludingPointer(_ recognizers: Instant?) -> Instant? {
        guard let w = storage.pointer.wheelDeadline else { return recognizers }
        guard let r = recognizers else { return w }
        return min(r, w)
    }

    /// Fires the recognizers' deadlines and the end of a wheel's scroll before `limit` (or at
    /// it), in time order (a recognizer's deadline first at the same instant). Display links'
    /// frames are interleaved by `fireDeadlines` (GestureEngine+DisplayLink.swift).
    func fireInputDeadlines(before limit: Instant, inclusive: Bool) {
        while let w = storage.pointer.wheelDeadline, w < limit || (inclusive && w == limit) {
            fireTimers(before: w, inclusive: true)
            guard storage.pointer.wheelDeadline == w else { continue }
            endWheelScroll(at: w)
        }
        fireTimers(before: limit, inclusive: inclusive)
    }

    // MARK: - Hover

    /// Shows every hover recognizer where the pointer (or a hovering pen, with its
    /// `sample`) of `device` is.
    func updateHover(at location: Point, device: InputDeviceID, pen sample: PenSample?) {
        storage.pointer.hoverDevice = device
        // A hover's `changed` says what moved: the pointer or the pen, not touches.
        storage.changeReason = sample == nil ? .pointerMoved : .penMoved
        defer { storage.changeReason = .touchesMoved }
        let hit = hitTest(location)
        var i = 0
        while i < storage.table.slotCount {
            let slot = RecognizerSlot(rawValue: i)
            i += 1
            guard let hover = storage.table.recognizer(slot) as? HoverGestureRecognizer,
                  storage.table.isEnabled(slot), let view = hover.view else { continue }
            let inside = hit.map { $0 === view || $0.isDescendant(of: view) } ?? false
            apply(hover.pointerMoved(to: location, inside: inside, pen: sample), to: slot)
        }
    }

    /// Ends every hover under way (a button was pressed, a pen touched down).
    func endHover(reason: TransitionReason = .pointerButtonPressed) {
        forEachActiveHover { _, slot in apply(.end(reason), to: slot) }
    }

    /// Ends every hover under way that follows `device` (a pen left proximity).
    func endHover(of device: InputDeviceID, reason: TransitionReason) {
        guard storage.pointer.hoverDevice == device else { return }
        storage.pointer.hoverDevice = nil
        forEachActiveHover { _, slot in apply(.end(reason), to: slot) }
    }

    private func forEachActiveHover(_ body: (HoverGestureRecognizer, RecognizerSlot) -> Void) {
        var i = 0
        while i < storage.table.slotCount {
            let slot = RecognizerSlot(rawValue: i)
            i += 1
            guard let hover = storage.table.recognizer(slot) as? HoverGestureRecognizer, hover.state.isActive else { continue }
            body(hover, slot)
        }
    }

    // MARK: - Devices going away

    /// `device` was removed: its button is released (its touch was cancelled), its wheel's
    /// scroll is over, the hovering that follows it is cancelled, and its later events are
    /// ignored.
    func pointerDeviceRemoved(_ device: InputDeviceID, at time: Instant) {
        if !storage.pointer.removed.contains(device) { storage.pointer.removed.append(device) }
        penDeviceRemoved(device)
        if storage.pointer.buttonDevice == device {
            storage.pointer.buttonDevice = nil
            storage.pointer.buttons = []
        }
        if storage.pointer.wheelDevice == device {
            storage.pointer.wheelDevice = nil
            storage.pointer.wheelDeadline = nil
        }
        if storage.pointer.hoverDevice == device {
            storage.pointer.hoverDevice = nil
            cancelHover(reason: .deviceRemoved(device), at: time)
        }
    }

    /// Cancels every hover under way (the pointer's device went away, or input ended).
    func cancelHover(reason: TransitionReason, at time: Instant) {
        var any = false
        forEachActiveHover { _, _ in any = true }
        guard any else { return }
        beginStep(at: max(time, now))
        forEachActiveHover { _, slot in apply(.cancel(reason), to: slot) }
        endStep()
    }
}
