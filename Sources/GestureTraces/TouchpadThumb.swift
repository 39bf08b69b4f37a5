import GestureKit

extension GestureDefaults {
    /// A touch moving faster than this counts towards libinput's speed-based thumb detection
    /// (`THUMB_IGNORE_SPEED_THRESHOLD`, evdev-mt-touchpad.c, 20 mm/s).
    public static let touchpadThumbSpeedMillimetresPerSecond = 20.0
    /// A touch landing while another has been faster than
    /// `touchpadThumbSpeedMillimetresPerSecond` for more than this many frames in a row may be
    /// a thumb (`tp_thumb_update_multifinger`: `speed_exceeded_count > 5`).
    public static let touchpadThumbSpeedFrames = 5
    /// How far apart (horizontally × vertically, mm) the two lowest touches must be for the new
    /// one to be a thumb rather than a second finger of a scroll (`SCROLL_MM_X`, `SCROLL_MM_Y`).
    public static let touchpadThumbScrollDistanceMillimetres = Size(width: 35, height: 25)
    /// A clickpad shorter than this has no thumb detection (`tp_init_thumb`, 50 mm).
    public static let touchpadThumbMinimumHeightMillimetres = 50.0
    /// The thumb area: the lowest part of a clickpad, this fraction of its height (`tp_init_thumb`'s
    /// `upper_thumb_line`, at 85 % of the height from the top: the lowest 15 %). A touch landing
    /// alone there is jailed (`tp_thumb_needs_jail`).
    public static let touchpadThumbAreaFraction = 0.15
    /// The lowest part of the thumb area, this fraction of the pad's height (`lower_thumb_line`,
    /// at 92 % from the top: the lowest 8 %): touches that land within
    /// `touchpadThumbTogether` of each other all count only while the lowest is above it.
    public static let touchpadThumbLowerAreaFraction = 0.08
    /// A jailed touch escapes once it has been faster than
    /// `touchpadThumbSpeedMillimetresPerSecond` for this many frames in a row
    /// (`tp_thumb_needs_jail`: `speed.exceeded_count >= 10`).
    public static let touchpadThumbEscapeFrames = 10
    /// Touches that all land within this of each other are fingers, not a thumb, unless the
    /// lowest is in the lowest 8 % (`tp_thumb_update_multifinger`'s `THUMB_TIMEOUT`, 100 ms).
    public static let touchpadThumbTogether = Duration.milliseconds(100)
}

/// libinput 1.22's thumb detection (evdev-mt-touchpad-thumb.c): a thumb counts for no gesture
/// and moves no pointer (`tp_thumb_ignored_for_gesture`, `tp_thumb_ignored`). Only on a
/// clickpad with a real size at least 50 mm tall (`tp_init_thumb`), with true multitouch
/// (libinput skips the speed on semi-MT pads), and one thumb at a time (libinput's `thumb.state`
/// and `thumb.index`). The thumb area is the pad's lowest 15 % (`upper_thumb_line`).
///
/// Modelled:
/// - `tp_thumb_update_touch` with one touch down: a touch that lands alone in the thumb area is
///   jailed (`THUMB_STATE_JAILED`, `tp_thumb_needs_jail`): it counts for no gesture and moves no
///   pointer until it leaves the area or has moved faster than 20 mm/s for 10 frames in a row;
///   then it is a finger. On the project's clickpads this takes in the bottom button area
///   (TouchpadInterpreter's `resting`): a thumb there that moves the button area's 5 mm is still
///   jailed; both must let a touch go for it to count, as in libinput (`tp_touch_active`).
/// - `tp_thumb_update_multifinger`, on a frame with a new touch and two or more down, from the
///   two lowest touches: the speed rule (in `THUMB_STATE_FINGER` only): a touch that lands while
///   another has moved faster than 20 mm/s for more than 5 frames in a row
///   (`tp_calculate_motion_speed`, which counts only once a touch has 4 frames of motion history
///   since it landed or the number of contacts last changed), when the two lowest touches are more
///   than 35 mm apart horizontally or 25 mm vertically, is a thumb (`THUMB_STATE_SUPPRESSED`)
///   until it lifts; otherwise two lowest touches closer than 35 × 25 mm are both fingers
///   (`tp_thumb_lift`); so are touches that all landed within 100 ms of each other while the
///   lowest is above the lowest 8 % (`lower_thumb_line`); otherwise a lowest touch more than 25 mm
///   below the next is a thumb in `THUMB_STATE_PINCH` (`tp_thumb_pinch`: it counts for gestures,
///   libinput keeps it only out of pointer motion), and any other is a finger. A jailed touch is
///   thus set free (or made a pinch thumb) when another lands.
/// - `tp_thumb_revive`: a suppressed or pinch thumb left the last touch counts again, unless it
///   is in the thumb area and has not moved fast for 10 frames (`THUMB_STATE_REVIVED_JAILED`),
///   until it leaves that area.
///
/// Not modelled: `pinch_eligible` (a touch faster than 20 mm/s for 10 frames while libinput has
/// no gesture turns a pinch thumb into a suppressed one), a pinch thumb kept out of the pointer
/// motion of two fingers holding a clickpad's button down, the gesture code's own thumb
/// (`tp_thumb_suppress` from `tp_gesture_detect_motion_gestures`, `THUMB_STATE_DEAD`), thumbs in
/// the tap machine (`tp_thumb_ignored_for_tap`), thumbs by pressure or size
/// (`AttrThumbPressureThreshold`, `AttrThumbSizeThreshold`: no quirk of the project's recorded
/// devices gives one), and edge scrolling (which turns the thumb area off).
struct TouchpadThumb: Sendable {
    /// libinput's `thumb.state` for the touch `thumb` (`THUMB_STATE_FINGER` when there is none).
    enum State: Sendable { case jailed, pinch, suppressed, revived, revivedJailed }

    /// libinput's `thumb.detect_thumbs` with the speed available: the thumb area starts here
    /// (mm from the top, `upper_thumb_line`); nil without thumb detection.
    let upperThumbLine: Double?
    /// Where the lowest 8 % starts (mm from the top, `lower_thumb_line`).
    let lowerThumbLine: Double
    /// Each contact's motion history length since the last reset and frames above the speed.
    private var speed: [Int: (history: Int, exceeded: Int)] = [:]
    /// When each contact landed (libinput's `initial_time`).
    private var landed: [Int: Instant] = [:]
    private var lastTime: Instant?
    /// The touch libinput's thumb state is about, and that state.
    private(set) var thumb: Int?
    private(set) var state: State?

    init(device: TraceDevice, isClickpad: Bool) {
        if isClickpad, !device.isSemiMT, device.slotCount > 1, let size = device.physicalSize,
           size.height >= GestureDefaults.touchpadThumbMinimumHeightMillimetres {
            upperThumbLine = size.height * (1 - GestureDefaults.touchpadThumbAreaFraction)
            lowerThumbLine = size.height * (1 - GestureDefaults.touchpadThumbLowerAreaFraction)
        } else {
            upperThumbLine = nil
            lowerThumbLine = .infinity
        }
    }

    /// Whether `id` counts for no gesture and moves no pointer (`tp_thumb_ignored_for_gesture`;
    /// a pinch thumb counts for gestures).
    func ignores(_ id: Int) -> Bool {
        guard thumb == id, let state else { return false }
        return state == .jailed || state == .suppressed || state == .revivedJailed
    }

    private mutating func set(_ id: Int?, _ new: State?) { thumb = new == nil ? nil : id; state = new }

    /// `tp_thumb_needs_jail`: in the thumb area and not fast for 10 frames.
    private func needsJail(_ c: (id: Int, point: Point)) -> Bool {
        guard let upperThumbLine, c.point.y >= upperThumbLine else { return false }
        return (speed[c.id]?.exceeded ?? 0) < GestureDefaults.touchpadThumbEscapeFrames
    }

    /// After a frame: `contacts` down now (mm), `before` at the last frame, `began` the ids that
    /// landed in it, `resetHistory` whether libinput resets the motion history in it
    /// (`tp_need_motion_history_reset`: the number of contacts changed in it or the frame before).
    mutating func update(contacts: [(id: Int, point: Point)], before: [(id: Int, point: Point)], began: [Int],
                         resetHistory: Bool, time: Instant) {
        guard upperThumbLine != nil else { return }
        defer { lastTime = time }
        // tp_thumb_update_touch: the thumb lifting.
        if let thumb, !contacts.contains(where: { $0.id == thumb }) { set(nil, nil) }
        if speed.keys.contains(where: { id in !contacts.contains { $0.id == id } }) {
            speed = speed.filter { id, _ in contacts.contains { $0.id == id } }
            landed = landed.filter { id, _ in contacts.contains { $0.id == id } }
        }
        for id in began { landed[id] = time }
        // tp_calculate_motion_speed, per touch.
        let dt = lastTime.map { Double(time.nanoseconds - $0.nanoseconds) / 1e9 } ?? 0
        for c in contacts {
            var s = speed[c.id] ?? (0, 0)
            if resetHistory { s.history = 0 }
            let was = before.first { $0.id == c.id }?.point
            if let was, was != c.point {
                if s.history >= 4, dt > 0 {
                    let mmPerSecond = c.point.distance(to: was) / dt
                    s.exceeded = mmPerSecond > GestureDefaults.touchpadThumbSpeedMillimetresPerSecond ? s.exceeded + 1 : 0
                }
            } else if s.exceeded > 0 {
                // A touch that did not move is below the speed.
                s.exceeded -= 1
            }
            s.history += 1
            speed[c.id] = s
        }
        // tp_thumb_update_touch with one touch down: a suppressed or pinch thumb left alone is
        // revived (tp_thumb_revive), jailed while in the thumb area; a touch landing alone there
        // is jailed; a jailed touch that leaves the area or moves fast escapes.
        if contacts.count == 1, let only = contacts.first {
            if only.id == thumb, state == .suppressed || state == .pinch {
                set(only.id, needsJail(only) ? .revivedJailed : .revived)
            }
            if began.contains(only.id), needsJail(only) {
                set(only.id, .jailed)
            } else if only.id == thumb, state == .jailed, !needsJail(only) {
                set(nil, nil)
            } else if only.id == thumb, state == .revivedJailed, !needsJail(only) {
                set(only.id, .revived)
            }
        }
        // tp_thumb_update_multifinger, on a frame with a new touch and two or more down.
        guard let newest = began.last, contacts.count >= 2 else { return }
        let lowest = contacts.sorted { $0.point.y > $1.point.y }
        let first = lowest[0], second = lowest[1]
        let distance = Point(x: abs(first.point.x - second.point.x), y: abs(first.point.y - second.point.y))
        let exceeded = speed.values.map(\.exceeded).max() ?? 0
        let apart = GestureDefaults.touchpadThumbScrollDistanceMillimetres
        // The speed rule.
        if state == nil && exceeded > GestureDefaults.touchpadThumbSpeedFrames
            && (distance.x > apart.width || distance.y > apart.height) {
            suppress(newest)
            return
        }
        // The two lowest close enough for a two-finger scroll: both fingers.
        if distance.x < apart.width && distance.y < apart.height { set(nil, nil); return }
        // All landed within 100 ms, the lowest above the lowest 8 %: all fingers.
        let oldest = contacts.compactMap { landed[$0.id] }.min() ?? time
        if time - oldest < GestureDefaults.touchpadThumbTogether && first.point.y < lowerThumbLine {
            set(nil, nil)
            return
        }
        // Far apart vertically: the lowest is a thumb (tp_thumb_pinch; pinch_eligible is
        // always true here).
        if distance.y > apart.height { pinch(first.id) } else { set(nil, nil) }
    }

    /// `tp_thumb_suppress`.
    private mutating func suppress(_ id: Int) {
        // A touch already suppressed or revived becomes dead in libinput, which counts for no
        // more than suppressed here.
        set(id, .suppressed)
    }

    /// `tp_thumb_pinch`.
    private mutating func pinch(_ id: Int) {
        if state == nil || state == .jailed || thumb != id {
            set(id, .pinch)
        } else if state != .pinch {
            suppress(id)
        }
    }
}
