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
}

/// libinput 1.22's speed-based thumb detection (evdev-mt-touchpad-thumb.c): a thumb counts for
/// no gesture and moves no pointer (`tp_thumb_ignored_for_gesture`, `tp_thumb_ignored`).
///
/// Modelled: `tp_thumb_update_multifinger`'s first rule: a touch that lands while another
/// touch has moved faster than 20 mm/s for more than 5 frames in a row
/// (`tp_calculate_motion_speed`, which counts only once a touch has 4 frames of motion history
/// since it landed or the number of contacts last changed), when the two lowest touches are more
/// than 35 mm apart horizontally or 25 mm vertically (too far apart for a two-finger scroll), is
/// a thumb (`THUMB_STATE_SUPPRESSED`) until it lifts; when it is the last touch left it counts
/// again (`tp_thumb_revive`), unless it is in the lowest 15 % of the pad and has not moved fast
/// for 10 frames (`tp_thumb_needs_jail`: `THUMB_STATE_REVIVED_JAILED`), until it leaves that area.
/// Only on a clickpad with a real size at least 50 mm tall, with true multitouch (libinput skips
/// the speed on semi-MT pads), and one thumb at a time (libinput's `thumb.state`).
///
/// Not modelled: the other rules of `tp_thumb_update_multifinger` (touches that land within
/// 100 ms, or far apart vertically after it: `THUMB_STATE_PINCH`), a lone touch landing in the
/// lowest 15 % (`THUMB_STATE_JAILED`; the bottom button area's rule covers most of it on the
/// project's clickpads), thumbs by pressure or size (`AttrThumbPressureThreshold`,
/// `AttrThumbSizeThreshold`: no quirk of the project's recorded devices gives one).
struct TouchpadThumb: Sendable {
    /// libinput's `thumb.detect_thumbs` with the speed available: the lowest 15 % starts here
    /// (mm from the top, `upper_thumb_line`); nil without thumb detection.
    let upperThumbLine: Double?
    /// Each contact's motion history length since the last reset and frames above the speed.
    private var speed: [Int: (history: Int, exceeded: Int)] = [:]
    private var lastTime: Instant?
    /// The thumb, and whether it is revived but jailed (the last touch left, in the thumb area).
    private(set) var thumb: Int?
    private var revivedJailed = false

    init(device: TraceDevice, isClickpad: Bool) {
        if isClickpad, !device.isSemiMT, device.slotCount > 1, let size = device.physicalSize,
           size.height >= GestureDefaults.touchpadThumbMinimumHeightMillimetres {
            upperThumbLine = size.height * 0.85
        } else {
            upperThumbLine = nil
        }
    }

    /// Whether `id` is the thumb, counting for nothing.
    func ignores(_ id: Int) -> Bool { thumb == id }

    /// After a frame: `contacts` down now (mm), `before` at the last frame, `began` the ids that
    /// landed in it, `resetHistory` whether libinput resets the motion history in it
    /// (`tp_need_motion_history_reset`: the number of contacts changed in it or the frame before).
    mutating func update(contacts: [(id: Int, point: Point)], before: [(id: Int, point: Point)], began: [Int],
                         resetHistory: Bool, time: Instant) {
        guard let upperThumbLine else { return }
        defer { lastTime = time }
        // tp_thumb_update_touch: the thumb lifting.
        if let thumb, !contacts.contains(where: { $0.id == thumb }) { self.thumb = nil; revivedJailed = false }
        if speed.keys.contains(where: { id in !contacts.contains { $0.id == id } }) {
            speed = speed.filter { id, _ in contacts.contains { $0.id == id } }
        }
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
        // tp_thumb_update_touch with one touch down: a thumb left alone is revived, jailed
        // while in the thumb area.
        if contacts.count == 1, let only = contacts.first, only.id == thumb {
            let jailed = only.point.y >= upperThumbLine && (speed[only.id]?.exceeded ?? 0) < 10
            if jailed { revivedJailed = true } else { thumb = nil; revivedJailed = false }
        }
        // tp_thumb_update_multifinger, on a frame with a new touch and two or more down: the
        // speed rule.
        guard thumb == nil, let newest = began.last, contacts.count >= 2 else { return }
        let lowest = contacts.sorted { $0.point.y > $1.point.y }
        let distance = Point(x: abs(lowest[0].point.x - lowest[1].point.x), y: abs(lowest[0].point.y - lowest[1].point.y))
        let exceeded = speed.values.map(\.exceeded).max() ?? 0
        let apart = GestureDefaults.touchpadThumbScrollDistanceMillimetres
        if exceeded > GestureDefaults.touchpadThumbSpeedFrames && (distance.x > apart.width || distance.y > apart.height) {
            thumb = newest
        }
    }
}
