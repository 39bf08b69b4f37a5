import GestureKit

extension GestureDefaults {
    // libinput 1.22's tap-to-click (evdev-mt-touchpad-tap.c).

    /// A finger down longer than this is no tap (libinput's `DEFAULT_TAP_TIMEOUT_PERIOD`,
    /// 180 ms); it is also how long a double tap's second finger may wait.
    public static let touchpadTapTimeout = Duration.milliseconds(180)
    /// After a tap, a finger landing within this long drags or double-taps
    /// (`DEFAULT_DRAG_TIMEOUT_PERIOD_BASE`, 160 ms, plus `touchpadTapDragTimeoutPerFinger` a
    /// finger of the tap): the tap's button is released only then.
    public static let touchpadTapDragTimeout = Duration.milliseconds(160)
    /// See `touchpadTapDragTimeout` (`DEFAULT_DRAG_TIMEOUT_PERIOD_PERFINGER`, 20 ms).
    public static let touchpadTapDragTimeoutPerFinger = Duration.milliseconds(20)
    /// With drag lock on, a finger lifted during a tap-and-drag may land again within this
    /// long and drag on (`DEFAULT_DRAGLOCK_TIMEOUT_PERIOD`, 300 ms).
    public static let touchpadTapDragLockTimeout = Duration.milliseconds(300)
    /// A finger that moves further than this from where it landed is no tap
    /// (`DEFAULT_TAP_MOVE_THRESHOLD`, 1.3 mm).
    public static let touchpadTapMoveMillimetres = 1.3
}

/// libinput 1.22's tap state machine (evdev-mt-touchpad-tap.c, its diagram
/// doc/touchpad-tap-state-machine.svg): one-, two- and three-finger taps click the left, right
/// and middle buttons (the LRM map, libinput's default), a tap and a finger landing again soon
/// after double-taps or drags with the button held, and with drag lock a lifted finger may land
/// again and drag on. One handler per state, as libinput's; the events are a finger landing
/// (touch), moving past `touchpadTapMoveMillimetres` (motion), lifting (release), a clickpad's
/// click (button) and the timer running out (timeout).
///
/// A value: the interpreter hands it each frame's contact changes (`handleState`) and its
/// deadline when that passes (`handleTimeout`), and takes the buttons it pressed and released
/// (`takeButtons`). It never reads a clock.
///
/// The buttons' times are libinput's: a tap's press carries the time its last finger landed
/// and its release the time a finger lifted (`saved_press_time`, `saved_release_time`), though
/// both are sent only once the tap is certain, at a later frame or deadline; a drag's release
/// carries the time it is sent. An engine handles such a late input when it arrives.
///
/// Not modelled: thumbs and palms (`TAP_EVENT_THUMB`, `TAP_EVENT_PALM`: the touches libinput's
/// thumb and palm detection leave out, and palm taps at the edges), the Synaptics serial
/// pads' exception to the motion threshold, and the LMR button map.
struct TouchpadTap: Sendable {
    enum State: Hashable, Sendable {
        case idle, touch, hold, dead
        case touch2, touch2Hold, touch2Release
        case touch3, touch3Hold, touch3Release, touch3Release2
        /// After a tap of that many fingers, its button pressed (libinput's `nFGTAP_TAPPED`).
        case tapped(Int)
        case draggingOrDoubleTap(Int)
        case dragging(Int)
        case draggingWait(Int)
        case draggingOrTap(Int)
        case dragging2(Int)
    }

    enum Event: Sendable { case touch, motion, release, button, timeout }

    /// A contact's change in a frame, for `handleState`: where it is now (mm of the pad).
    struct Change: Sendable {
        enum Phase: Sendable { case began, moved, ended }
        var id: Int
        var phase: Phase
        var point: Point
    }

    private(set) var state = State.idle
    /// libinput's tap timer.
    private(set) var deadline: Instant?
    /// Fingers down that count for tapping (libinput's `tap.nfingers_down`).
    private(set) var fingersDown = 0
    /// Where each finger down landed (libinput's `t->tap.initial`), mm.
    private var initial: [Int: Point] = [:]
    /// The taps' buttons held down, by fingers (libinput's `buttons_pressed`).
    private var pressed: Set<Int> = []
    /// Buttons pressed and released since the last `takeButtons`, in order, by evdev code.
    private var buttons: [(code: Int, pressed: Bool, time: Instant)] = []
    /// libinput's `saved_press_time` and `saved_release_time`.
    private var savedPress = Instant.zero, savedRelease = Instant.zero
    /// libinput's `drag_enabled` (default on, `tp_drag_default`).
    let dragEnabled: Bool
    /// libinput's `drag_lock_enabled` (default off, `tp_drag_lock_default`).
    let dragLockEnabled: Bool

    init(dragEnabled: Bool = true, dragLockEnabled: Bool = false) {
        self.dragEnabled = dragEnabled
        self.dragLockEnabled = dragLockEnabled
    }

    /// libinput's `tp_tap_default`: tapping is on by default only on a pad without a left
    /// button (there is no other way to click); otherwise off.
    static func enabledByDefault(hasLeftButton: Bool) -> Bool { !hasLeftButton }

    /// The buttons pressed and released since the last call, in order.
    mutating func takeButtons() -> [(code: Int, pressed: Bool, time: Instant)] {
        defer { buttons.removeAll(keepingCapacity: true) }
        return buttons
    }

    // MARK: Queries the gestures ask (libinput's tp_tap_dragging, tp_tap_dragging_or_double_tapping)

    /// A tap-and-drag under way: the pad moves the pointer with one finger, no gesture.
    var isDragging: Bool {
        switch state {
        case .dragging, .dragging2, .draggingWait, .draggingOrTap: true
        default: false
        }
    }

    var isDraggingOrDoubleTapping: Bool {
        if case .draggingOrDoubleTap = state { return true }
        return false
    }

    /// The states in which a hold of three fingers waits for the tap timer (libinput's
    /// `tp_gesture_use_hold_timer`: not in a hold or dead state).
    var holdsWithTapTimer: Bool {
        switch state {
        case .hold, .touch2Hold, .touch3Hold, .dead: false
        default: true
        }
    }

    // MARK: A frame (libinput's tp_tap_handle_state)

    /// The contacts' changes of one frame, in slot order; `clickpadPressed`: a clickpad's button
    /// went down in it; `fingerCountChanged` on a semi-MT pad: the number of fingers changed in
    /// it (such a pad's positions jump then: no motion counts). Returns whether pointer motion
    /// is to be held back while the tap is undecided (libinput's `filter_motion`).
    mutating func handleState(time: Instant, changes: [Change], clickpadPressed: Bool,
                              ignoreMotion: Bool) -> Bool {
        if clickpadPressed { handle(.button, time: time) }
        for c in changes {
            switch c.phase {
            case .began:
                initial[c.id] = c.point
                fingersDown += 1
                handle(.touch, time: time)
            case .ended:
                guard initial.removeValue(forKey: c.id) != nil else { continue }
                fingersDown -= 1
                handle(.release, time: time)
            case .moved:
                // tp_tap_exceeds_motion_threshold
                guard state != .idle, !ignoreMotion, let start = initial[c.id],
                      c.point.distance(to: start) > GestureDefaults.touchpadTapMoveMillimetres else { continue }
                handle(.motion, time: time)
            }
        }
        switch state {
        case .touch, .tapped, .draggingOrDoubleTap, .draggingOrTap, .touch2, .touch3: return true
        default: return false
        }
    }

    /// libinput's `tp_tap_handle_timeout`. True when the fingers down were held too long for
    /// a tap (touch, two or three fingers to their hold states): libinput then tells the
    /// gestures (`tp_gesture_tap_timeout`), whose hold of three fingers waits for this.
    mutating func handleTimeout(at time: Instant) -> Bool {
        deadline = nil
        let before = state
        handle(.timeout, time: time)
        return (before == .touch && state == .hold) || (before == .touch2 && state == .touch2Hold)
            || (before == .touch3 && state == .touch3Hold)
    }

    // MARK: The machine (libinput's tp_tap_handle_event)

    private mutating func handle(_ event: Event, time: Instant) {
        switch state {
        case .idle: idle(event, time)
        case .touch: touch(event, time)
        case .hold: hold(event, time)
        case let .tapped(n): tapped(event, time, n)
        case .touch2: touch2(event, time)
        case .touch2Hold: touch2Hold(event, time)
        case .touch2Release: touch2Release(event, time)
        case .touch3: touch3(event, time)
        case .touch3Hold: touch3Hold(event, time)
        case .touch3Release: touch3Release(event, time)
        case .touch3Release2: touch3Release2(event, time)
        case let .draggingOrDoubleTap(n): draggingOrDoubleTap(event, time, n)
        case let .dragging(n): dragging(event, time, n)
        case let .draggingWait(n): draggingWait(event, time, n)
        case let .draggingOrTap(n): draggingOrTap(event, time, n)
        case let .dragging2(n): dragging2(event, time, n)
        case .dead: dead(event, time)
        }
        if state == .idle || state == .dead { deadline = nil }
    }

    /// `tp_tap_notify` with libinput's LRM map: one finger left, two right, three middle.
    private mutating func notify(_ fingers: Int, pressed down: Bool, at time: Instant) {
        guard (1...3).contains(fingers) else { return }
        if down { pressed.insert(fingers) } else { pressed.remove(fingers) }
        buttons.append(([0x110, 0x111, 0x112][fingers - 1], down, time))
    }

    /// A press stamped with the saved press time, a release with the saved release time.
    private mutating func notify(_ fingers: Int, pressed down: Bool) {
        notify(fingers, pressed: down, at: down ? savedPress : savedRelease)
    }

    /// `tp_tap_set_timer`.
    private mutating func setTimer(_ time: Instant) { deadline = time + GestureDefaults.touchpadTapTimeout }

    /// `tp_tap_set_drag_timer`.
    private mutating func setDragTimer(_ time: Instant, fingers: Int) {
        deadline = time + GestureDefaults.touchpadTapDragTimeout + GestureDefaults.touchpadTapDragTimeoutPerFinger * fingers
    }

    /// `tp_tap_move_to_dead`.
    private mutating func moveToDead() {
        state = .dead
        deadline = nil
    }

    /// `tp_tap_idle_handle_event`.
    private mutating func idle(_ event: Event, _ time: Instant) {
        switch event {
        case .touch:
            state = .touch
            savedPress = time
            setTimer(time)
        case .button: state = .dead
        case .release, .motion, .timeout: break
        }
    }

    /// `tp_tap_touch_handle_event`: one finger down.
    private mutating func touch(_ event: Event, _ time: Instant) {
        switch event {
        case .touch:
            state = .touch2
            savedPress = time
            setTimer(time)
        case .release:
            notify(1, pressed: true)
            if dragEnabled {
                state = .tapped(1)
                savedRelease = time
                setDragTimer(time, fingers: 1)
            } else {
                notify(1, pressed: false, at: time)
                state = .idle
            }
        case .motion: moveToDead()
        case .timeout:
            state = .hold
            deadline = nil
        case .button: state = .dead
        }
    }

    /// `tp_tap_hold_handle_event`: one finger down too long for a tap.
    private mutating func hold(_ event: Event, _ time: Instant) {
        switch event {
        case .touch:
            state = .touch2
            savedPress = time
            setTimer(time)
        case .release: state = .idle
        case .motion: moveToDead()
        case .timeout: break
        case .button: state = .dead
        }
    }

    /// `tp_tap_tapped_handle_event`: a tap's button down, waiting for a finger to drag or tap again.
    private mutating func tapped(_ event: Event, _ time: Instant, _ n: Int) {
        switch event {
        case .touch:
            state = .draggingOrDoubleTap(n)
            savedPress = time
            setTimer(time)
        case .timeout:
            state = .idle
            notify(n, pressed: false)
        case .button:
            state = .dead
            notify(n, pressed: false)
        case .motion, .release: break  // libinput: a bug
        }
    }

    /// `tp_tap_touch2_handle_event`: two fingers down.
    private mutating func touch2(_ event: Event, _ time: Instant) {
        switch event {
        case .touch:
            state = .touch3
            savedPress = time
            setTimer(time)
        case .release:
            state = .touch2Release
            savedRelease = time
            setTimer(time)
        case .motion: moveToDead()
        case .timeout: state = .touch2Hold
        case .button: state = .dead
        }
    }

    /// `tp_tap_touch2_hold_handle_event`.
    private mutating func touch2Hold(_ event: Event, _ time: Instant) {
        switch event {
        case .touch:
            state = .touch3
            savedPress = time
            setTimer(time)
        case .release: state = .hold
        case .motion: moveToDead()
        case .timeout: state = .touch2Hold
        case .button: state = .dead
        }
    }

    /// `tp_tap_touch2_release_handle_event`: one of two fingers lifted.
    private mutating func touch2Release(_ event: Event, _ time: Instant) {
        switch event {
        case .touch:
            state = .touch2Hold
            deadline = nil
        case .release:
            notify(2, pressed: true)
            if dragEnabled {
                state = .tapped(2)
                setDragTimer(time, fingers: 2)
            } else {
                notify(2, pressed: false)
                state = .idle
            }
        case .motion: moveToDead()
        case .timeout: state = .hold
        case .button: state = .dead
        }
    }

    /// `tp_tap_touch3_handle_event`: three fingers down.
    private mutating func touch3(_ event: Event, _ time: Instant) {
        switch event {
        case .touch:
            state = .dead
            deadline = nil
        case .motion: moveToDead()
        case .timeout:
            state = .touch3Hold
            deadline = nil
        case .release:
            state = .touch3Release
            savedRelease = time
            setTimer(time)
        case .button: state = .dead
        }
    }

    /// `tp_tap_touch3_hold_handle_event`.
    private mutating func touch3Hold(_ event: Event, _ time: Instant) {
        switch event {
        case .touch:
            state = .dead
            setTimer(time)
        case .release: state = .touch2Hold
        case .motion: moveToDead()
        case .timeout: break
        case .button: state = .dead
        }
    }

    /// `tp_tap_touch3_release_handle_event`: one of three fingers lifted.
    private mutating func touch3Release(_ event: Event, _ time: Instant) {
        switch event {
        case .touch:
            notify(3, pressed: true)
            notify(3, pressed: false)
            state = .touch3
            savedPress = time
            setTimer(time)
        case .release:
            state = .touch3Release2
            setTimer(time)
        case .motion:
            notify(3, pressed: true)
            notify(3, pressed: false)
            moveToDead()
        case .timeout:
            notify(3, pressed: true)
            notify(3, pressed: false)
            state = .touch2Hold
        case .button:
            notify(3, pressed: true)
            notify(3, pressed: false)
            state = .dead
        }
    }

    /// `tp_tap_touch3_release2_handle_event`: two of three fingers lifted.
    private mutating func touch3Release2(_ event: Event, _ time: Instant) {
        switch event {
        case .touch:
            notify(3, pressed: true)
            notify(3, pressed: false)
            state = .touch2
            savedPress = time
            setTimer(time)
        case .release:
            notify(3, pressed: true)
            if dragEnabled {
                state = .tapped(3)
                setDragTimer(time, fingers: 3)
            } else {
                notify(3, pressed: false)
                state = .idle
            }
        case .motion:
            notify(3, pressed: true)
            notify(3, pressed: false)
            moveToDead()
        case .timeout:
            notify(3, pressed: true)
            notify(3, pressed: false)
            state = .hold
        case .button:
            notify(3, pressed: true)
            notify(3, pressed: false)
            state = .dead
        }
    }

    /// `tp_tap_dragging_or_doubletap_handle_event`: a finger down soon after a tap.
    private mutating func draggingOrDoubleTap(_ event: Event, _ time: Instant, _ n: Int) {
        switch event {
        case .touch:
            notify(n, pressed: false)
            state = .touch2
            savedPress = time
            setTimer(time)
        case .release:
            // A double tap: the first tap's button up, the second's down, released after the
            // tap timeout (or at the next touch) as a single tap's.
            state = .tapped(1)
            notify(n, pressed: false)
            notify(1, pressed: true)
            savedRelease = time
            setTimer(time)
        case .motion, .timeout: state = .dragging(n)
        case .button:
            state = .dead
            notify(n, pressed: false)
        }
    }

    /// `tp_tap_dragging_handle_event`: a tap-and-drag, the button held while the finger moves.
    private mutating func dragging(_ event: Event, _ time: Instant, _ n: Int) {
        switch event {
        case .touch: state = .dragging2(n)
        case .release:
            if dragLockEnabled {
                state = .draggingWait(n)
                deadline = time + GestureDefaults.touchpadTapDragLockTimeout
            } else {
                notify(n, pressed: false, at: time)
                state = .idle
            }
        case .motion, .timeout: break
        case .button:
            state = .dead
            notify(n, pressed: false, at: time)
        }
    }

    /// `tp_tap_dragging_wait_handle_event`: drag lock, the finger lifted mid-drag.
    private mutating func draggingWait(_ event: Event, _ time: Instant, _ n: Int) {
        switch event {
        case .touch:
            state = .draggingOrTap(n)
            setTimer(time)
        case .timeout:
            state = .idle
            notify(n, pressed: false, at: time)
        case .button:
            state = .dead
            notify(n, pressed: false, at: time)
        case .release, .motion: break  // libinput: a bug
        }
    }

    /// `tp_tap_dragging_tap_handle_event`: drag lock, a finger down again: a tap ends the drag,
    /// a move drags on.
    private mutating func draggingOrTap(_ event: Event, _ time: Instant, _ n: Int) {
        switch event {
        case .touch:
            notify(n, pressed: false, at: time)
            moveToDead()
        case .release:
            state = .idle
            notify(n, pressed: false, at: time)
        case .motion, .timeout: state = .dragging(n)
        case .button:
            state = .dead
            notify(n, pressed: false, at: time)
        }
    }

    /// `tp_tap_dragging2_handle_event`: a second finger down during a drag.
    private mutating func dragging2(_ event: Event, _ time: Instant, _ n: Int) {
        switch event {
        case .release: state = .dragging(n)
        case .touch:
            state = .dead
            notify(n, pressed: false, at: time)
        case .motion, .timeout: break
        case .button:
            state = .dead
            notify(n, pressed: false, at: time)
        }
    }

    /// `tp_tap_dead_handle_event`: no tap until every finger has lifted.
    private mutating func dead(_ event: Event, _ time: Instant) {
        if event == .release && fingersDown == 0 { state = .idle }
    }
}

/// The interpreter's hooks for tapping (libinput's tp_post_events and the tap timer).
extension TouchpadInterpreter {
    // MARK: Tapping (TouchpadTap: libinput's tp_tap_handle_state and its timer)

    /// Hands the frame's contacts to the tap state machine and sends the buttons it pressed or
    /// released. True while a tap is undecided: then no motion decides a gesture, and a motion
    /// gesture under way is cancelled (libinput's `ignore_motion`,
    /// `tp_gesture_cancel_motion_gestures`).
    mutating func handleTaps(time: Instant, frame: TouchFrame?, clickpadPressed: Bool, fingerCountChanged: Bool,
                                     pointer: PointerDecoder, _ emit: (InputEvent) throws -> Void) rethrows -> Bool {
        var changes: [TouchpadTap.Change] = []
        for c in frame?.changes ?? [] {
            switch c.phase {
            case .began, .moved:
                guard let now = contacts.first(where: { $0.id == c.sourceID }) else { continue }
                changes.append(.init(id: c.sourceID, phase: c.phase == .began ? .began : .moved, point: now.point))
            case .ended, .cancelled:
                changes.append(.init(id: c.sourceID, phase: .ended, point: .zero))
            }
        }
        // A semi-MT pad's positions jump when a finger lands or lifts (tp_tap_exceeds_motion_threshold).
        let ignore = tap!.handleState(time: time, changes: changes, clickpadPressed: clickpadPressed,
                                      ignoreMotion: isSemiMT && fingerCountChanged)
        try emitTapButtons(pointer: pointer, emit)
        if ignore && started && state != .hold {
            try end(cancelled: true, time: time, pointer: pointer, emit)
            reset()
        }
        return ignore
    }

    /// The tap timer ran out (libinput's `tp_tap_handle_timeout`); fingers held too long for a
    /// tap begin a hold of three (`tp_gesture_tap_timeout`: one or two hold on their own timer).
    mutating func tapTimeout(at time: Instant, pointer: PointerDecoder, _ emit: (InputEvent) throws -> Void) rethrows {
        let heldTooLong = tap!.handleTimeout(at: time)
        try emitTapButtons(pointer: pointer, emit)
        if heldTooLong, gesturesEnabled, fingerCount > 2 { try holdTimeout(at: time, pointer: pointer, emit) }
    }

    private mutating func emitTapButtons(pointer: PointerDecoder, _ emit: (InputEvent) throws -> Void) rethrows {
        // Stamped as libinput stamps them (TouchpadTap), sent now.
        for (code, pressed, stamp) in tap!.takeButtons() {
            try emit(.pointer(.button(pressed, at: pointer.location, time: stamp, device: device, button: code)))
        }
    }

    /// The end of the recording: the tap timers still set run out in turn (a tap's button is
    /// released after the tap timeout, as libinput releases it while the device is still
    /// there). Returns the time of the last, if any.
    public mutating func finish(pointer: PointerDecoder, _ emit: (InputEvent) throws -> Void) rethrows -> Instant? {
        var last: Instant?
        while let due = tap?.deadline {
            try tapTimeout(at: due, pointer: pointer, emit)
            last = due
        }
        return last
    }
}
