import GestureKit
import RealModule

extension GestureDefaults {
    /// A touchpad without a resolution on its axes is taken to be this size, in millimetres
    /// (libinput's own assumption for such pads: 69 × 50 mm).
    public static let touchpadAssumedSizeMillimetres = Size(width: 69, height: 50)

    /// How many screen points a millimetre of a touchpad is when its surface (`pad`, in mm;
    /// `touchpadAssumedSizeMillimetres` when unknown) is stretched over `screen`: the
    /// geometric mean of the two axes' scales. Nil for a degenerate size.
    public static func pointsPerMillimetre(pad: Size?, screen: Size) -> Double? {
        let size = pad ?? touchpadAssumedSizeMillimetres
        guard size.width > 0, size.height > 0 else { return nil }
        let k = (screen.width / size.width * screen.height / size.height).squareRoot()
        return k.isFinite && k > 0 ? k : nil
    }
    /// How far the pointer moves for a millimetre of one finger's motion on a touchpad, in
    /// points (no acceleration), how far a millimetre of two fingers' motion scrolls, and of
    /// three or four a swipe.
    public static let touchpadPointsPerMillimetre = 10.0

    // libinput's touchpad gesture thresholds (evdev-mt-touchpad-gestures.c, 1.19 to 1.28).

    /// A hold begins when one or two fingers have rested this long (libinput's
    /// `QUICK_GESTURE_HOLD_TIMEOUT`, 40 ms: it stops kinetic scrolling without a wait).
    public static let touchpadQuickHoldDelay = Duration.milliseconds(40)
    /// A hold of three or more fingers begins after this long (`DEFAULT_GESTURE_HOLD_TIMEOUT`).
    public static let touchpadHoldDelay = Duration.milliseconds(180)
    /// One finger that has moved less than this from where it landed still holds while it
    /// moves the pointer (`HOLD_AND_MOTION_THRESHOLD`, 0.5 mm).
    public static let touchpadHoldAndMotionMillimetres = 0.5
    /// Two fingers that have both moved less than this from where they landed are not yet a
    /// gesture (libinput's 1 mm).
    public static let touchpadUndecidedMillimetres = 1.0
    /// Each of two fingers must have moved this far for their directions to decide between a
    /// scroll and a pinch (libinput's `min_move`, 1.5 mm, plus 0.5 mm a finger beyond two).
    public static let touchpadGestureDecisionMillimetres = 1.5
    /// One finger past this while the other has not moved `touchpadGestureDecisionMillimetres`
    /// is one-finger scrolling (libinput's `max_move`, 4 mm, plus 2 mm a finger beyond two).
    public static let touchpadOneFingerScrollMillimetres = 4.0
    /// Fingers closer than this (horizontally × vertically, mm) that are still undecided
    /// after `touchpadSwipeDecisionDelay` scroll (two) or swipe (three or more).
    public static let touchpadCloseFingersMillimetres = Size(width: 40, height: 7)
    /// See `touchpadCloseFingersMillimetres` (`DEFAULT_GESTURE_SWIPE_TIMEOUT`, 150 ms).
    public static let touchpadSwipeDecisionDelay = Duration.milliseconds(150)
    /// A scroll whose fingers turn out to move apart within this long of the gesture's start
    /// becomes a pinch (`DEFAULT_GESTURE_PINCH_TIMEOUT`, 300 ms); each finger must have moved
    /// `touchpadGestureDecisionMillimetres` (`PINCH_DISAMBIGUATION_MOVE_THRESHOLD`).
    public static let touchpadPinchCorrectionDelay = Duration.milliseconds(300)
    /// When the number of fingers changes during a gesture, the new count is taken only once it
    /// has held this long (`DEFAULT_GESTURE_SWITCH_TIMEOUT`, 100 ms): the gesture then ends
    /// (cancelled) and the new count starts again. Fingers that all lift before it end the
    /// gesture normally.
    public static let touchpadFingerCountSettleDelay = Duration.milliseconds(100)
    /// libinput reads at most this many fingers as a gesture (`tp_gesture_post_events`: more
    /// make nothing until some lift).
    public static let touchpadMaximumGestureFingers = 4
    /// A clickpad's click pins the fingers on the pad where they are (libinput's
    /// `tp_pin_fingers`): a pinned finger moves nothing and counts for no gesture until it has
    /// moved this far from there (`tp_unpin_finger`, 1.5 mm), so the click's own wobble does
    /// not move the pointer.
    public static let touchpadUnpinMillimetres = 1.5
    /// A clickpad's bottom button area (libinput's `tp_init_softbuttons`): its lowest 10 mm, or
    /// its lowest 15 % when that is less. A finger that lands there rests on a button (a thumb
    /// ready to click) and counts for no gesture and moves no pointer until it leaves the area
    /// or moves `touchpadButtonAreaMoveMillimetres` within it (`tp_button_touch_active`).
    public static let touchpadButtonAreaHeightMillimetres = 10.0
    /// See `touchpadButtonAreaHeightMillimetres` (`tp_button_check_for_movement`, 5 mm).
    public static let touchpadButtonAreaMoveMillimetres = 5.0
    /// Fingers in the button area that landed within this of a finger that leaves it are part
    /// of its gesture and count too (`tp_button_release_other_bottom_touches`, 80 ms).
    public static let touchpadButtonAreaTogether = Duration.milliseconds(80)
}

/// A touchpad read the way libinput reads it, from its contacts (the decoder's frames) and
/// its button. Its contacts never become touches (REPLAY.md: a touchpad is a pointer, as an
/// iPad's trackpad is): one finger moves the pointer, the button is a click at the pointer,
/// two fingers scroll or pinch, three or four swipe, and fingers at rest hold, all at the
/// pointer.
///
/// ## The rules: libinput 1.22's gesture state machine (evdev-mt-touchpad-gestures.c)
/// One handler per state, as libinput's; thresholds in `GestureDefaults` (millimetres of the
/// pad, from its axes' resolution or `touchpadAssumedSizeMillimetres`).
///
/// | state | what happens |
/// |---|---|
/// | none | fingers land: the gesture's touches are noted (one; two; of three or four the top-most and the bottom-most, the first and the last of fingers on one line), the hold timer set (`touchpadQuickHoldDelay` for one or two fingers, `touchpadHoldDelay` for more; none on a pad without gestures); unknown. A semi-MT or one-slot pad (no pinch, swipe or hold in libinput) scrolls two fingers at once and ignores more |
/// | unknown | one finger moving: pointer motion. More fingers than the pad has slots (BTN_TOOL_TRIPLETAP or QUADTAP on a two-slot pad): swipe at once. Two or more: undecided while both moved under `touchpadUndecidedMillimetres`; close fingers (`touchpadCloseFingersMillimetres`) still undecided after `touchpadSwipeDecisionDelay` scroll or swipe; one past `touchpadOneFingerScrollMillimetres` while the other rests: scroll (two fingers); both past `touchpadGestureDecisionMillimetres`: the same direction (libinput's octants, neighbours count as the same) scrolls (two) or swipes (more), otherwise a pinch. The hold timer: hold |
/// | hold | a hold gesture (begin sent). One finger moving less than `touchpadHoldAndMotionMillimetres` from where it landed: hold and motion; further: cancelled, pointer motion. Two or more deciding a scroll, pinch or swipe: cancelled, and that |
/// | pointer motion | the pointer follows the finger. The hold timer with the finger still within `touchpadHoldAndMotionMillimetres`: hold and motion |
/// | hold and motion | a hold while the pointer moves; past `touchpadHoldAndMotionMillimetres`: cancelled, pointer motion |
/// | scroll | the fingers' mean motion scrolls; within `touchpadPinchCorrectionDelay` of the start, fingers that turn out to move apart make it a pinch (the scroll stops) |
/// | pinch, swipe | updates with the scale and turn of the two gesture touches, or their mean motion |
///
/// The number of fingers (libinput's `tp_gesture_handle_state`): the last finger lifting ends
/// the gesture (not cancelled; a scroll stops). A change before anything began is taken at
/// once, and undecided fingers start again from none. A change during a gesture waits
/// `touchpadFingerCountSettleDelay` with nothing sent: fingers that all lift within it end the
/// gesture normally (people do not lift two fingers in the same millisecond); a count that
/// holds cancels it and starts again with the new count. In the frame the count changes and
/// the next, no contact moves the pointer, scrolls or swipes (libinput resets the touches'
/// motion history twice), so a hold survives one jittery frame. More than four fingers make
/// nothing. A clickpad's click pins the fingers where they are: until one moves
/// `touchpadUnpinMillimetres` it counts for nothing, so a gesture under way ends (not
/// cancelled, its fingers gone) and the click's wobble moves no pointer; while the button is
/// down, the fingers that count move the pointer as one and make no gesture (libinput's
/// clickpad rule, `tp_gesture_post_events`). A finger that lands in a clickpad's bottom
/// button area (a thumb ready to click) counts for nothing until it leaves the area or moves
/// 5 mm in it (libinput's software buttons, evdev-mt-touchpad-buttons.c). A palm counts for
/// nothing: one pressing past the pad's palm pressure, or one that lands alone in an edge zone
/// (libinput's `tp_palm_detect`; TouchpadPalm.swift); so does a thumb (TouchpadThumb.swift,
/// libinput's evdev-mt-touchpad-thumb.c): one that lands far from a finger moving fast, one
/// that lands alone in the lowest 15 % of the pad until it leaves it or moves fast (jailed:
/// both this and the button area's rule must let a touch go for it to count), and one left
/// alone there after landing 25 mm below another. Tapping
/// (`TouchpadTap`, libinput's evdev-mt-touchpad-tap.c), on by default only on a pad without a
/// left button as libinput's: taps click, a tap-and-drag moves the pointer with the button
/// held and no gesture, and while a tap is undecided no motion decides a gesture. Not
/// modelled: libinput's thumbs by pressure and size, its `pinch_eligible` and the gesture
/// code's own thumb (`THUMB_STATE_DEAD`), palm
/// detection by touch size, palms and thumbs in the tap machine, pointer acceleration (the pointer moves
/// `touchpadPointsPerMillimetre` a millimetre), and the scroll's axis locking.
public struct TouchpadInterpreter: Sendable {
    public let device: InputDeviceID
    /// Millimetres per screen point of the decoder's mapping, in x and y.
    let mmPerPoint: Point
    let screen: Size
    /// libinput's `gesture.enabled` and `gesture.hold_enabled` (`tp_gesture_are_gestures_enabled`):
    /// pinch, swipe and hold need a pad that reports every finger, so neither a semi-MT pad nor
    /// one with a single slot has them.
    let gesturesEnabled: Bool
    /// The pad's slots (libinput's `num_slots`).
    let slotCount: Int

    enum State: Sendable { case none, unknown, hold, pointerMotion, holdAndMotion, scroll, pinch, swipe }

    private(set) var state = State.none
    /// The pad's contacts now, in millimetres of the pad, after libinput's hysteresis.
    var contacts: [(id: Int, point: Point)] = []
    /// Contacts pinned by a click, and where (`touchpadUnpinMillimetres`).
    var pinned: [Int: Point] = [:]
    /// Contacts that landed in the bottom button area and have neither left it nor moved in
    /// it (libinput's `BUTTON_STATE_BOTTOM` without `has_moved`): where and when they landed.
    var resting: [Int: (initial: Point, time: Instant)] = [:]
    /// Palm detection (TouchpadPalm.swift, libinput's `tp_palm_detect`).
    var palm: TouchpadPalm
    /// Thumb detection (TouchpadThumb.swift, libinput's evdev-mt-touchpad-thumb.c).
    var thumb: TouchpadThumb
    /// The contacts that count (libinput's `tp_touch_active_for_gesture`): all but the pinned,
    /// those resting in the button area, palms and a thumb.
    var activeContacts: [(id: Int, point: Point)] {
        pinned.isEmpty && resting.isEmpty && palm.palms.isEmpty && thumb.thumb == nil ? contacts
            : contacts.filter { pinned[$0.id] == nil && resting[$0.id] == nil && !palm.palms.contains($0.id) && !thumb.ignores($0.id) }
    }
    /// The top of the bottom button area, in mm from the pad's top edge; nil without button
    /// areas (a pad with buttons, or clickfinger).
    let buttonAreaTop: Double?
    /// libinput's hysteresis (`tp_motion_hysteresis`): on from the start for a pad whose axes
    /// have a fuzz, or once a finger is seen wobbling (`tp_detect_wobbling`: right, left, right
    /// within 40 ms a step). A contact then moves only when it leaves an ellipse of `margin`
    /// around where it was, and trails by the margin (`evdev_hysteresis`).
    var hysteresisEnabled: Bool
    /// The fuzz of each axis, or a quarter of a millimetre (libinput: `resolution / 4`).
    let hysteresisMargin: Point
    var wobble: (history: UInt8, lastMotion: Instant) = (0, .zero)
    /// The gesture's touches: where each landed (mm) and was at the last frame.
    var tracked: [(id: Int, initial: Point, last: Point)] = []
    var fingerCount = 0
    var initialTime = Instant.zero
    var holdDeadline: Instant?
    /// libinput's `finger_count_pending` (0: none) and its switch timer
    /// (`tp_gesture_handle_state`): a count that changed during a gesture, waiting to settle.
    var pendingFingerCount = 0
    var settleDeadline: Instant?
    /// Frames left in which no contact has a delta (libinput's `tp_need_motion_history_reset`
    /// and `quirks.reset_motion_history`: a change in the number of fingers down resets every
    /// touch's motion history in that frame and again in the next, so neither moves the pointer,
    /// scrolls or swipes).
    var motionResetFrames = 0
    /// A hold, pinch or swipe has sent its begin; a scroll has sent its first delta.
    var started = false
    var pinchStart = (distance: 0.0, angle: 0.0)
    var pinchAngle = 0.0
    var pinchScale = 1.0
    /// Buttons pressed (true) or released in this frame, by evdev code.
    var buttonChanges: [(code: Int, pressed: Bool)] = []
    var buttonDown = false
    /// libinput's default click method for the pad (`tp_click_get_default_method`):
    /// a clickpad's click is the button of the area it is made in (button areas), or of the
    /// number of fingers on an Apple pad (clickfinger); a pad with physical buttons sends them.
    enum ClickMethod: Sendable { case none, buttonAreas, clickfinger }
    let clickMethod: ClickMethod
    /// The pad's size in mm, for the button areas.
    let padSize: Size
    /// The button a clickpad's BTN_LEFT press stood for, to release the same one.
    var clickButton: Int?
    /// Tap-to-click (TouchpadTap), nil when off.
    var tap: TouchpadTap?
    let isSemiMT: Bool

    /// `tapping`: the pad's tap-to-click on or off; nil: libinput's default for the pad (on
    /// only without a left button, `tp_tap_default`).
    public init(device: TraceDevice, screen: Size, tapping: Bool? = nil) {
        self.device = device.id
        isSemiMT = device.isSemiMT
        let hasLeftButton = device.description?.has(.key, .btnLeft) ?? false
        if tapping ?? TouchpadTap.enabledByDefault(hasLeftButton: hasLeftButton) { tap = TouchpadTap() }
        self.screen = screen
        let size = device.physicalSize ?? GestureDefaults.touchpadAssumedSizeMillimetres
        mmPerPoint = Point(x: size.width / screen.width, y: size.height / screen.height)
        slotCount = device.slotCount
        gesturesEnabled = !device.isSemiMT && device.slotCount > 1
        contacts.reserveCapacity(5)
        palm = TouchpadPalm(device: device, padSize: device.physicalSize)
        padSize = size
        let isClickpad = device.description?.properties.contains(.buttonpad) ?? false
        thumb = TouchpadThumb(device: device, isClickpad: isClickpad)
        if !isClickpad {
            clickMethod = .none
        } else if device.description?.vendor == 0x05ac {
            clickMethod = .clickfinger
        } else {
            clickMethod = .buttonAreas
        }
        let areaHeight = min(GestureDefaults.touchpadButtonAreaHeightMillimetres, size.height * 0.15)
        buttonAreaTop = clickMethod == .buttonAreas ? size.height - areaHeight : nil
        // The fuzz in mm: by the axis's resolution, or, without one, by the size libinput
        // assumes (its fake resolution); a quarter of a millimetre without a fuzz.
        func margin(_ axis: AbsInfo?, assumed: Double) -> Double {
            guard let axis, axis.fuzz > 0 else { return 0.25 }
            if axis.resolution > 0 { return Double(axis.fuzz) / Double(axis.resolution) }
            let range = Double(axis.maximum) - Double(axis.minimum)
            return range > 0 ? Double(axis.fuzz) * assumed / range : 0.25
        }
        let assumed = GestureDefaults.touchpadAssumedSizeMillimetres
        hysteresisMargin = Point(x: margin(device.xAxis, assumed: assumed.width), y: margin(device.yAxis, assumed: assumed.height))
        hysteresisEnabled = (device.xAxis?.fuzz ?? 0) > 0 || (device.yAxis?.fuzz ?? 0) > 0
    }

    /// Takes one raw event of the pad before the decoder does (its buttons).
    public mutating func feed(_ event: EvdevEvent) {
        palm.feed(event)
        let code = Int(event.code.rawValue)
        if event.type == .key, ButtonMask(evdevCode: code) != nil, event.value == 0 || event.value == 1 {
            buttonChanges.append((code, event.value == 1))
        }
    }

    /// The button a clickpad's click stands for (libinput's click methods): on an Apple pad
    /// two fingers right and three middle (clickfinger); elsewhere the area of the bottom of
    /// the pad the fingers there are in (the lowest 10 mm, or 15 % of a smaller pad: left of
    /// 37.5 % of the width the left button, right of 62.5 % the right, between the middle),
    /// the left button when no finger is there.
    func clickedButton() -> Int {
        switch clickMethod {
        case .none:
            return 0x110
        case .clickfinger:
            return contacts.count == 2 ? 0x111 : contacts.count >= 3 ? 0x112 : 0x110
        case .buttonAreas:
            let top = buttonAreaTop ?? padSize.height
            var button = 0x110
            for c in contacts where c.point.y >= top {
                let x = c.point.x / padSize.width
                let area = x < 0.375 ? 0x110 : x <= 0.625 ? 0x112 : 0x111
                if area != 0x110 { button = area }
            }
            return button
        }
    }

    func mm(_ p: Point) -> Point {
        Point(x: min(max(p.x, 0), screen.width) * mmPerPoint.x, y: min(max(p.y, 0), screen.height) * mmPerPoint.y)
    }

    /// A SYN_REPORT: `frame` holds the decoder's contact changes, if any. Hands what the pad
    /// did to `emit`, in time order.
    public mutating func commit(time: Instant, frame: TouchFrame?, pointer: inout PointerDecoder,
                                _ emit: (InputEvent) throws -> Void) rethrows {
        // libinput's timers that ran out since the last frame, in time order.
        while true {
            let hold = holdDeadline.flatMap { $0 <= time ? $0 : nil }
            let settle = settleDeadline.flatMap { $0 <= time ? $0 : nil }
            if let due = tap?.deadline, due <= time, hold.map({ due <= $0 }) ?? true, settle.map({ due <= $0 }) ?? true {
                try tapTimeout(at: due, pointer: pointer, emit)
            } else if let settle, hold.map({ settle <= $0 }) ?? true {
                settleDeadline = nil
                try fingerCountSettled(at: settle, pointer: pointer, emit)
            } else if let hold {
                holdDeadline = nil
                // libinput's tp_gesture_hold_timeout: no hold during a tap-and-drag or a double tap.
                if !(tap?.isDragging ?? false) && !(tap?.isDraggingOrDoubleTapping ?? false) {
                    try holdTimeout(at: hold, pointer: pointer, emit)
                }
            } else {
                break
            }
        }
        let before = contacts
        var moved = false
        var began: [Int] = []
        if let frame {
            for c in frame.changes {
                switch c.phase {
                case .began:
                    let point = mm(c.location)
                    contacts.append((c.sourceID, point))
                    began.append(c.sourceID)
                    if let top = buttonAreaTop, point.y >= top { resting[c.sourceID] = (point, time) }
                case .moved:
                    guard let i = contacts.firstIndex(where: { $0.id == c.sourceID }) else { continue }
                    let raw = mm(c.location)
                    if raw != contacts[i].point { moved = true }
                    if contacts.count == 1 && before.count == 1 { detectWobbling(from: contacts[i].point, to: raw, time: time) }
                    contacts[i].point = hysteresisEnabled ? Self.hysteresis(raw, center: contacts[i].point, margin: hysteresisMargin) : raw
                case .ended, .cancelled:
                    contacts.removeAll { $0.id == c.sourceID }
                    pinned[c.sourceID] = nil
                    resting[c.sourceID] = nil
                }
            }
        }
        if !moved { wobble.history = 0 }
        palm.detect(contacts: contacts, began: began, time: time) { [pinned = self.pinned, resting = self.resting] in
            pinned[$0] == nil && resting[$0] == nil
        }
        if contacts.count != before.count { motionResetFrames = 2 }
        thumb.update(contacts: contacts, before: before, began: began, resetHistory: motionResetFrames > 0, time: time)
        defer { motionResetFrames = max(0, motionResetFrames - 1) }
        var buttons: [(code: Int, pressed: Bool)] = []
        for change in buttonChanges {
            var code = change.code
            if change.code == 0x110 && clickMethod != .none {
                // A clickpad's one physical button: the area or fingers say which it is.
                if change.pressed { clickButton = clickedButton() }
                code = clickButton ?? 0x110
                if !change.pressed { clickButton = nil }
            }
            buttons.append((code, change.pressed))
            if change.code == 0x110 && clickMethod != .none { buttonDown = change.pressed }
        }
        // libinput's tp_process_state: a finger moved far enough from where a click pinned it
        // is free again; a clickpad's press pins every finger.
        for c in contacts {
            if let center = pinned[c.id], c.point.distance(to: center) >= GestureDefaults.touchpadUnpinMillimetres {
                pinned[c.id] = nil
            }
        }
        if !resting.isEmpty { updateButtonArea() }
        if clickMethod != .none, buttonChanges.contains(where: { $0.code == 0x110 && $0.pressed }) {
            for c in contacts { pinned[c.id] = c.point }
        }
        let clickpadPressed = clickMethod != .none && buttonChanges.contains { $0.code == 0x110 && $0.pressed }
        buttonChanges.removeAll(keepingCapacity: true)
        try handleFingerCount(time: time, pointer: pointer, emit)
        // libinput's tp_post_events: the taps first (their buttons, and whether motion waits).
        var ignoreMotion = false
        if tap != nil {
            ignoreMotion = try handleTaps(time: time, frame: frame, clickpadPressed: clickpadPressed,
                                          fingerCountChanged: contacts.count != before.count, pointer: pointer, emit)
        }
        if fingerCount > 0, (clickMethod != .none && buttonDown) || tap?.isDragging == true {
            // libinput's tp_gesture_post_events: a clickpad's button held down, or a
            // tap-and-drag, allows no gesture; the fingers move the pointer, as one.
            if state != .pointerMotion {
                try end(cancelled: true, time: time, pointer: pointer, emit)
                state = .pointerMotion
            }
            fingerCount = 1
            pendingFingerCount = 0
            settleDeadline = nil
            let active = activeContacts
            if let first = active.first, !active.contains(where: { $0.id == tracked.first?.id }) {
                tracked = [(first.id, first.point, first.point)]
            }
        }
        // libinput's tp_gesture_post_events: nothing while the count is unsure, nothing of
        // more fingers than a gesture takes.
        if pendingFingerCount == 0 && fingerCount <= GestureDefaults.touchpadMaximumGestureFingers {
            try post(time: time, before: before, ignoreMotion: ignoreMotion, pointer: &pointer, emit)
        }
        for i in tracked.indices {
            if let c = contacts.first(where: { $0.id == tracked[i].id }) { tracked[i].last = c.point }
        }
        for (code, pressed) in buttons {
            try emit(.pointer(.button(pressed, at: pointer.location, time: time, device: device, button: code)))
        }
    }

    /// libinput's `tp_button_handle_state`: a finger resting in the bottom button area that
    /// leaves it (`tp_button_bottom_handle_event`) or moves `touchpadButtonAreaMoveMillimetres`
    /// in it (`tp_button_check_for_movement`) counts from then on, and so do the fingers
    /// resting there that landed within `touchpadButtonAreaTogether` of it
    /// (`tp_button_release_other_bottom_touches`).
    private mutating func updateButtonArea() {
        guard let top = buttonAreaTop else { return }
        var released: [Instant] = []
        for c in contacts {
            guard let r = resting[c.id] else { continue }
            if c.point.y < top || c.point.distance(to: r.initial) > GestureDefaults.touchpadButtonAreaMoveMillimetres {
                resting[c.id] = nil
                released.append(r.time)
            }
        }
        for time in released {
            let together = GestureDefaults.touchpadButtonAreaTogether.nanosecondCount
            resting = resting.filter { abs($0.value.time.nanoseconds - time.nanoseconds) > together }
        }
    }

    /// libinput's `tp_gesture_handle_state`: the number of fingers changed. All lifted: the
    /// gesture ends (not cancelled). No gesture begun yet: the new count is taken at once
    /// (and undecided fingers or pointer motion start again from none). Otherwise the new
    /// count waits `touchpadFingerCountSettleDelay` (`fingerCountSettled`).
    private mutating func handleFingerCount(time: Instant, pointer: PointerDecoder,
                                            _ emit: (InputEvent) throws -> Void) rethrows {
        let active = activeContacts.count
        guard active != fingerCount else {
            pendingFingerCount = 0
            return
        }
        if active == 0 {
            try end(cancelled: false, time: time, pointer: pointer, emit)
            state = .none
            tracked.removeAll()
            fingerCount = 0
            pendingFingerCount = 0
            settleDeadline = nil
        } else if !started {
            fingerCount = active
            pendingFingerCount = 0
            if state == .unknown || state == .pointerMotion || state == .none {
                reset()
            }
        } else if active != pendingFingerCount {
            pendingFingerCount = active
            settleDeadline = time + GestureDefaults.touchpadFingerCountSettleDelay
        }
    }

    /// libinput's `tp_gesture_finger_count_switch_timeout`: the new count held; the gesture
    /// under way is cancelled and the count taken.
    private mutating func fingerCountSettled(at time: Instant, pointer: PointerDecoder,
                                             _ emit: (InputEvent) throws -> Void) rethrows {
        guard pendingFingerCount != 0 else { return }
        try end(cancelled: true, time: time, pointer: pointer, emit)
        reset()
        fingerCount = pendingFingerCount
        pendingFingerCount = 0
    }

    /// libinput's `GESTURE_EVENT_RESET`: back to none, the hold timer stopped.
    mutating func reset() {
        state = .none
        holdDeadline = nil
        tracked.removeAll()
    }

    // MARK: The states' handlers (libinput's tp_gesture_handle_state_*)

    private mutating func post(time: Instant, before: [(id: Int, point: Point)], ignoreMotion: Bool = false,
                               pointer: inout PointerDecoder, _ emit: (InputEvent) throws -> Void) rethrows {
        guard fingerCount > 0 else { return }
        if state == .none { try handleNone(time: time, pointer: pointer, emit) }
        switch state {
        case .none: break
        case .unknown, .hold:
            // While a tap is undecided, no motion decides a gesture (tp_gesture_handle_state_unknown).
            if !ignoreMotion { try detectMotionGestures(time: time, before: before, pointer: pointer, emit) }
        case .holdAndMotion:
            try movePointer(time: time, before: before, pointer: &pointer, emit)
            try detectMotionGestures(time: time, before: before, pointer: pointer, emit)
        case .pointerMotion: try movePointer(time: time, before: before, pointer: &pointer, emit)
        case .scroll: try handleScroll(time: time, pointer: pointer, emit)
        case .pinch: try handlePinch(time: time, pointer: pointer, emit)
        case .swipe: try handleSwipe(time: time, pointer: pointer, emit)
        }
    }

    /// Fingers landed: note the gesture's touches and set the hold timer.
    private mutating func handleNone(time: Instant, pointer: PointerDecoder, _ emit: (InputEvent) throws -> Void) rethrows {
        // libinput's tp_gesture_get_active_touches: the first four.
        let points = activeContacts.prefix(min(fingerCount, GestureDefaults.touchpadMaximumGestureFingers)).map { (id: $0.id, mm: $0.point) }
        guard let first = points.first else { return }
        initialTime = time
        started = false
        if fingerCount == 1 {
            tracked = [(first.id, first.mm, first.mm)]
        } else if !gesturesEnabled {
            // A pad that cannot tell its fingers apart scrolls with two, at once.
            guard fingerCount == 2 else { return }
            tracked = points.map { ($0.id, $0.mm, $0.mm) }
            state = .scroll
            return
        } else {
            // Of three or more, the top-most and the bottom-most (libinput's
            // tp_gesture_handle_state_none): the first touch is both to begin with; a later one
            // strictly higher becomes the top, one at least as low the bottom, so fingers on one
            // horizontal line give the first and the last of them.
            var top = points[0], bottom = points[0]
            if fingerCount > 2 {
                for p in points.dropFirst().prefix(max(0, slotCount - 1)) {
                    if p.mm.y < top.mm.y { top = p } else if p.mm.y >= bottom.mm.y { bottom = p }
                }
                guard top.id != bottom.id else { return }
            } else {
                bottom = points[1]
            }
            tracked = [(top.id, top.mm, top.mm), (bottom.id, bottom.mm, bottom.mm)]
        }
        state = .unknown
        // libinput's tp_gesture_set_hold_timer: no hold on a pad without gestures; a hold of
        // three fingers that may still be a tap waits for the tap timer (tapTimeout).
        if gesturesEnabled && !(fingerCount == 3 && tap?.holdsWithTapTimer == true) {
            holdDeadline = time + (fingerCount <= 2 ? GestureDefaults.touchpadQuickHoldDelay : GestureDefaults.touchpadHoldDelay)
        }
    }

    /// The hold timer ran out.
    mutating func holdTimeout(at time: Instant, pointer: PointerDecoder, _ emit: (InputEvent) throws -> Void) rethrows {
        switch state {
        case .unknown:
            state = .hold
            try start(time: time, pointer: pointer, emit)
        case .pointerMotion:
            guard fingerCount == 1, let t = tracked.first,
                  t.last.distance(to: t.initial) < GestureDefaults.touchpadHoldAndMotionMillimetres else { return }
            state = .holdAndMotion
            try start(time: time, pointer: pointer, emit)
        default:
            break
        }
    }

    private func moved(_ t: (id: Int, initial: Point, last: Point)) -> Double {
        guard let c = contacts.first(where: { $0.id == t.id }) else { return 0 }
        return c.point.distance(to: t.initial)
    }

    private func current(_ t: (id: Int, initial: Point, last: Point)) -> Point {
        contacts.first(where: { $0.id == t.id }).map { $0.point } ?? t.last
    }

    /// libinput's `tp_gesture_detect_motion_gestures`.
    private mutating func detectMotionGestures(time: Instant, before: [(id: Int, point: Point)], pointer: PointerDecoder,
                                               _ emit: (InputEvent) throws -> Void) rethrows {
        guard let first = tracked.first else { return }
        if fingerCount == 1 {
            // Only when the finger moved in this frame.
            // (libinput's tp_has_pending_pointer_motion: none in a frame whose history was reset.)
            guard motionResetFrames == 0, let now = contacts.first(where: { $0.id == first.id }),
                  let was = before.first(where: { $0.id == first.id }), now.point != was.point else { return }
            let holdsStill = moved(first) < GestureDefaults.touchpadHoldAndMotionMillimetres
            if state == .hold && holdsStill { state = .holdAndMotion; return }
            if state == .holdAndMotion && holdsStill { return }
            if state == .hold || state == .holdAndMotion { try end(cancelled: true, time: time, pointer: pointer, emit) }
            state = .pointerMotion
            return
        }
        // More fingers than slots: where the others are is unknown, so a swipe, at once
        // (libinput's tp_gesture_detect_motion_gestures; its hold timer stops).
        if gesturesEnabled && fingerCount > 2 && fingerCount > slotCount {
            return try become(.swipe, time: time, pointer: pointer, emit)
        }
        guard tracked.count == 2 else { return }
        let second = tracked[1]
        let extra = Double(fingerCount - 2)
        let maxMove = GestureDefaults.touchpadOneFingerScrollMillimetres + 2 * extra
        let minMove = GestureDefaults.touchpadGestureDecisionMillimetres + 0.5 * extra
        let firstMM = moved(first), secondMM = moved(second)
        if firstMM < GestureDefaults.touchpadUndecidedMillimetres && secondMM < GestureDefaults.touchpadUndecidedMillimetres { return }
        let a = current(first), b = current(second)
        let close = GestureDefaults.touchpadCloseFingersMillimetres
        if abs(a.x - b.x) < close.width && abs(a.y - b.y) < close.height
            && time > initialTime + GestureDefaults.touchpadSwipeDecisionDelay {
            return try become(fingerCount == 2 ? .scroll : .swipe, time: time, pointer: pointer, emit)
        }
        if firstMM >= maxMove || secondMM >= maxMove {
            // The finger is the upper touch, the thumb the lower.
            let fingerMM = a.y > b.y ? secondMM : firstMM
            if fingerMM < minMove && fingerCount == 2 { return try become(.scroll, time: time, pointer: pointer, emit) }
        }
        if firstMM < minMove || secondMM < minMove { return }
        if Self.sameDirections(Self.direction(a - first.initial), Self.direction(b - second.initial)) {
            try become(fingerCount == 2 ? .scroll : .swipe, time: time, pointer: pointer, emit)
        } else {
            try become(.pinch, time: time, pointer: pointer, emit)
        }
    }

    /// Leaves unknown or hold for a motion gesture (a hold under way is cancelled).
    private mutating func become(_ next: State, time: Instant, pointer: PointerDecoder,
                                 _ emit: (InputEvent) throws -> Void) rethrows {
        holdDeadline = nil
        if state == .hold || state == .holdAndMotion { try end(cancelled: true, time: time, pointer: pointer, emit) }
        if next == .pinch { initPinch() }
        state = next
        switch next {
        case .scroll: try handleScroll(time: time, pointer: pointer, emit, fromStart: true)
        case .pinch: try handlePinch(time: time, pointer: pointer, emit)
        case .swipe: try handleSwipe(time: time, pointer: pointer, emit)
        default: break
        }
    }

    private mutating func initPinch() {
        guard tracked.count == 2 else { return }
        let a = current(tracked[0]), b = current(tracked[1])
        pinchStart = (a.distance(to: b), Self.angle(a, b))
        pinchAngle = pinchStart.angle
        pinchScale = 1
    }

    /// The two gesture touches' mean motion since the last frame (or since they landed).
    private func meanDelta(fromStart: Bool) -> Point {
        guard !tracked.isEmpty, fromStart || motionResetFrames == 0 else { return .zero }
        var sum = Point.zero
        for t in tracked { sum = sum + current(t) - (fromStart ? t.initial : t.last) }
        return sum / Double(tracked.count) * GestureDefaults.touchpadPointsPerMillimetre
    }

    private mutating func handleScroll(time: Instant, pointer: PointerDecoder, _ emit: (InputEvent) throws -> Void,
                                       fromStart: Bool = false) rethrows {
        if gesturesEnabled, time < initialTime + GestureDefaults.touchpadPinchCorrectionDelay, isPinch() {
            try end(cancelled: true, time: time, pointer: pointer, emit)
            initPinch()
            state = .pinch
            return try handlePinch(time: time, pointer: pointer, emit)
        }
        let delta = meanDelta(fromStart: fromStart)
        guard delta != .zero else { return }
        started = true
        try emit(.pointer(.scroll(delta, .continuous, at: pointer.location, time: time, device: device)))
    }

    /// libinput's `tp_gesture_is_pinch`: the two touches move in different directions, each
    /// past `touchpadGestureDecisionMillimetres`.
    private func isPinch() -> Bool {
        guard tracked.count == 2 else { return false }
        let a = tracked[0], b = tracked[1]
        guard !Self.sameDirections(Self.direction(current(a) - a.initial), Self.direction(current(b) - b.initial)) else { return false }
        return moved(a) >= GestureDefaults.touchpadGestureDecisionMillimetres
            && moved(b) >= GestureDefaults.touchpadGestureDecisionMillimetres
    }

    private mutating func handlePinch(time: Instant, pointer: PointerDecoder, _ emit: (InputEvent) throws -> Void) rethrows {
        guard tracked.count == 2 else { return }
        let a = current(tracked[0]), b = current(tracked[1])
        let scale = pinchStart.distance > 0 ? a.distance(to: b) / pinchStart.distance : 1
        let angle = Self.angle(a, b)
        var turned = (angle - pinchAngle) * 180 / Double.pi
        if turned > 180 { turned -= 360 } else if turned < -180 { turned += 360 }
        pinchAngle = angle
        let delta = meanDelta(fromStart: false)
        if started && delta == .zero && scale == pinchScale && turned == 0 { return }
        try start(time: time, pointer: pointer, emit)
        pinchScale = scale
        try emit(.touchpadGesture(TouchpadGestureEvent(kind: .pinch, phase: .update, time: time, device: device,
                                                       fingers: fingerCount, location: pointer.location, scale: scale,
                                                       angleDelta: turned, delta: delta)))
    }

    private mutating func handleSwipe(time: Instant, pointer: PointerDecoder, _ emit: (InputEvent) throws -> Void) rethrows {
        let delta = meanDelta(fromStart: !started)
        guard delta != .zero else { return }
        try start(time: time, pointer: pointer, emit)
        try emit(.touchpadGesture(TouchpadGestureEvent(kind: .swipe, phase: .update, time: time, device: device,
                                                       fingers: fingerCount, location: pointer.location, delta: delta)))
    }

    private mutating func movePointer(time: Instant, before: [(id: Int, point: Point)], pointer: inout PointerDecoder,
                                      _ emit: (InputEvent) throws -> Void) rethrows {
        guard let first = tracked.first, pinned[first.id] == nil,
              let now = contacts.first(where: { $0.id == first.id }) else { return }
        let was = before.first(where: { $0.id == first.id })?.point ?? now.point
        let d = now.point - was
        guard d != .zero, motionResetFrames == 0 else { return }
        let k = GestureDefaults.touchpadPointsPerMillimetre
        let location = pointer.location
        pointer.move(by: Point(x: d.x * k, y: d.y * k))
        if pointer.location != location { try emit(.pointer(.motion(to: pointer.location, at: time, device: device))) }
    }

    // MARK: Begin and end (libinput's tp_gesture_start, tp_gesture_end)

    private mutating func start(time: Instant, pointer: PointerDecoder, _ emit: (InputEvent) throws -> Void) rethrows {
        guard !started else { return }
        started = true
        let kind: TouchpadGestureEvent.Kind
        switch state {
        case .hold, .holdAndMotion: kind = .hold
        case .pinch: kind = .pinch
        case .swipe: kind = .swipe
        default: return
        }
        try emit(.touchpadGesture(TouchpadGestureEvent(kind: kind, phase: .begin, time: time, device: device,
                                                       fingers: fingerCount, location: pointer.location)))
    }

    /// Ends the gesture under way: a hold, pinch or swipe sends its end (or cancel), a scroll
    /// its stop. Nothing if it had not started.
    mutating func end(cancelled: Bool, time: Instant, pointer: PointerDecoder,
                              _ emit: (InputEvent) throws -> Void) rethrows {
        holdDeadline = nil
        defer { started = false }
        guard started else { return }
        let phase: TouchpadGestureEvent.Phase = cancelled ? .cancel : .end
        switch state {
        case .hold, .holdAndMotion:
            try emit(.touchpadGesture(TouchpadGestureEvent(kind: .hold, phase: phase, time: time, device: device,
                                                           fingers: fingerCount, location: pointer.location)))
        case .pinch:
            try emit(.touchpadGesture(TouchpadGestureEvent(kind: .pinch, phase: phase, time: time, device: device,
                                                           fingers: fingerCount, location: pointer.location, scale: pinchScale)))
        case .swipe:
            try emit(.touchpadGesture(TouchpadGestureEvent(kind: .swipe, phase: phase, time: time, device: device,
                                                           fingers: fingerCount, location: pointer.location)))
        case .scroll:
            try emit(.pointer(.scroll(.zero, .continuous, at: pointer.location, time: time, device: device, stop: true)))
        case .none, .unknown, .pointerMotion:
            break
        }
    }

    // MARK: Hysteresis (libinput's tp_detect_wobbling, evdev_hysteresis)

    /// One finger's x motion going right, left, right, each within 40 ms of the last,
    /// turns the hysteresis on for good.
    private mutating func detectWobbling(from previous: Point, to point: Point, time: Instant) {
        guard !hysteresisEnabled else { return }
        let dx = previous.x - point.x, dy = previous.y - point.y
        let dtime = time.nanoseconds - wobble.lastMotion.nanoseconds
        wobble.lastMotion = time
        if (dx == 0 && dy != 0) || dtime > 40_000_000 {
            wobble.history = 0
            return
        }
        wobble.history >>= 1
        if dx > 0 {
            wobble.history |= 1 << 2
            if wobble.history == 0b101 { hysteresisEnabled = true }
        }
    }

    /// `point` held at `center` while inside the ellipse of radii `margin` around it, else
    /// trailing it by the ellipse.
    static func hysteresis(_ point: Point, center: Point, margin: Point) -> Point {
        let dx = point.x - center.x, dy = point.y - center.y
        guard margin.x > 0, margin.y > 0 else { return point }
        let normalized = (dx * dx / (margin.x * margin.x) + dy * dy / (margin.y * margin.y)).squareRoot()
        if normalized < 1 { return center }
        let distance = (dx * dx + dy * dy).squareRoot()
        let marginDistance = distance / normalized
        return Point(x: point.x - marginDistance * dx / distance, y: point.y - marginDistance * dy / distance)
    }

    // MARK: Directions (libinput's xy_get_direction and tp_gesture_same_directions)

    /// The compass octants (bit 0 north, clockwise) a movement in mm points along: one or two
    /// for a movement of 2 mm or more, three (the quarter it points into) for a shorter one.
    static func direction(_ mm: Point) -> UInt32 {
        let x = mm.x, y = mm.y
        if abs(x) < 2, abs(y) < 2 {
            let n: UInt32 = 1 << 0, ne: UInt32 = 1 << 1, e: UInt32 = 1 << 2, se: UInt32 = 1 << 3
            let s: UInt32 = 1 << 4, sw: UInt32 = 1 << 5, w: UInt32 = 1 << 6, nw: UInt32 = 1 << 7
            if x > 0 && y > 0 { return s | se | e }
            if x > 0 && y < 0 { return n | ne | e }
            if x < 0 && y > 0 { return s | sw | w }
            if x < 0 && y < 0 { return n | nw | w }
            if x > 0 { return ne | e | se }
            if x < 0 { return nw | w | sw }
            if y > 0 { return se | s | sw }
            if y < 0 { return ne | n | nw }
            return 0xff
        }
        var r = Double.atan2(y: y, x: x)
        r = (r + 2.5 * Double.pi).truncatingRemainder(dividingBy: 2 * Double.pi)
        r *= 4 / Double.pi
        let d1 = Int(r + 0.9) % 8, d2 = Int(r + 0.1) % 8
        return (1 << UInt32(d1)) | (1 << UInt32(d2))
    }

    /// Overlapping or neighbouring octants.
    static func sameDirections(_ a: UInt32, _ b: UInt32) -> Bool {
        ((a | (a >> 1)) & b) != 0 || ((b | (b >> 1)) & a) != 0
            || ((a & 0x80) != 0 && (b & 0x01) != 0) || ((b & 0x80) != 0 && (a & 0x01) != 0)
    }

    static func angle(_ a: Point, _ b: Point) -> Double {
        Double.atan2(y: b.y - a.y, x: b.x - a.x)
    }
}
