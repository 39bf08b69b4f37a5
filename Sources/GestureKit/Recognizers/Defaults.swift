import RealModule

/// The defaults of the built-in recognizers, named with their unit (libinput's style).
///
/// UIKit documents only the long press's (0.5 s, 10 pt). For the rest we chose from the
/// table in SEMANTICS.md (Flutter, GTK4, Hammer.js, Android, libinput) and say why beside
/// each. The replay tool's scene defaults are these same values.
public enum GestureDefaults {
    /// Tap: how far a touch may travel from where it went down, in points. Between GTK4's
    /// 8 px and Hammer.js's 9 px on one side and Flutter's 18 px on the other; a finger's
    /// jitter on a touchscreen stays well inside it.
    public static let tapAllowableMovementPoints = 10.0
    /// Tap: the longest a touch may stay down and still be a tap. It matches the long press's
    /// minimum duration, so a touch is either a tap or a long press.
    public static let maximumTapDuration: Duration = .milliseconds(500)
    /// Tap: the longest pause from one tap's touch-up to the next tap's touch-down (Flutter,
    /// Hammer.js and Android all use 300 ms).
    public static let maximumTapInterval: Duration = .milliseconds(300)
    /// Tap: how far a later tap may land from the first, in points (between Hammer.js's
    /// 10 px, too tight for fingers, and Flutter's 100 px, which merges neighbouring targets).
    public static let maximumTapDistancePoints = 45.0
    /// Long press: UIKit's documented 0.5 s.
    public static let minimumPressDuration: Duration = .milliseconds(500)
    /// Long press: UIKit's documented 10 pt.
    public static let longPressAllowableMovementPoints = 10.0
    /// Pinch: how much the span (the touches' mean distance from their centroid) must
    /// change before a pinch begins, in points. Flutter's 18 px slop is on the span
    /// (twice our measure), so 9 px in ours; we take 10 pt, which also stays above the 4 %
    /// span drift of a two-finger pan (the EP0430M09 fixture: about 5 pt), so a two-finger
    /// scroll does not begin a pinch.
    public static let pinchSpanThresholdPoints = 10.0
    /// Pinch: the least change of span per point the touches' centroid travelled for a span
    /// change to begin a pinch. Two fingers scrolling together drift apart a little (the
    /// EP0430M09 two-finger pan: 10 pt of span over about 190 pt of travel, a ratio of 0.05);
    /// a pinch with one finger still spreads as much as its centroid moves (ratio 1), and a
    /// symmetric pinch spreads without travelling at all. 0.5 separates the two.
    public static let pinchMinimumSpanToTravelRatio = 0.5
    /// Rotation: how far the first two touches must turn before a rotation begins, in
    /// radians (0.2 rad ≈ 11.5°). Two-finger pans and four-finger drags in the fixtures
    /// drift 6–10°; a deliberate rotation passes this within its first tenth of a second.
    public static let rotationThresholdRadians = 0.2
    /// Pan: how far the touches' centroid must move before a pan begins, in points (the
    /// same as the tap slop, so a touch that stops being a tap starts being a pan).
    public static let panThresholdPoints = 10.0
    /// Swipe: how far the touches must travel in the swipe's direction, in points.
    public static let swipeMinimumDistancePoints = 50.0
    /// Swipe: the longest a swipe may take from touch-down to reaching its distance.
    public static let swipeMaximumDuration: Duration = .milliseconds(500)
    /// Touchpad contacts (indirect touches, decoded without libinput) are measured in
    /// millimetres of the pad: every distance threshold above, in points, becomes this many
    /// millimetres per point (a 10 pt tap slop is 6 mm of the pad, a 10 pt pan threshold 6 mm,
    /// a 50 pt swipe 30 mm). A touchpad's contact wobbles as the finger lands and rolls, by
    /// up to a fingertip's radius: the ALPS GlidePoint fixtures' one-finger taps move up to
    /// 6.2 mm within 70 ms (90 pt across its 69 mm, which has no resolution), and they are taps.
    /// The frame says how many points a millimetre is (`TouchFrame.pointsPerMillimetre`).
    /// Live touchpads go through libinput's own gestures instead (GestureLibinput).
    public static let touchpadMillimetresPerThresholdPoint = 0.6 /* mm per pt */
    /// The factor for touchpad contacts whose frames do not say how big the pad is (a
    /// `libinput debug-events` trace): a 70 × 50 mm pad stretched over a 1000-point screen
    /// is 14–20 pt a millimetre, so 10 × the touchscreen's thresholds is 5–7 mm of the pad.
    public static let touchpadDistanceScaleWithoutSize = 10.0
    /// Swipe: the most sideways movement per point of movement in the swipe's direction
    /// (0.5 ≈ 26.6° off the axis).
    public static let swipeMaximumOffAxisRatio = 0.5
}

/// Per-touch positions kept by the built-in recognizers: where each touch went down and
/// where it is now. Storage is kept across resets, so steady-state updates allocate nothing.
struct TrackedTouches: Sendable {
    struct Entry: Sendable {
        var id: TouchID
        var start: Point
        var current: Point
    }

    private(set) var entries: [Entry] = []

    /// Room for a few touches from the start, so the first touches of a gesture allocate
    /// nothing.
    init() {
        entries.reserveCapacity(4)
    }
    /// The factor for distance thresholds, set by the first touch: 1 for a touchscreen; for
    /// a touchpad, `touchpadMillimetresPerThresholdPoint` millimetres of the pad per point
    /// (`touchpadDistanceScaleWithoutSize` when the pad's size is unknown).
    private(set) var distanceScale = 1.0

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    mutating func add(_ touch: Touch) {
        if entries.isEmpty {
            distanceScale = touch.deviceKind != .touchpad ? 1
                : touch.pointsPerMillimetre.map { $0 * GestureDefaults.touchpadMillimetresPerThresholdPoint }
                ?? GestureDefaults.touchpadDistanceScaleWithoutSize
        }
        entries.append(Entry(id: touch.id, start: touch.location, current: touch.location))
    }

    /// Updates the touches' current positions; returns the largest distance any of them now
    /// is from where it went down.
    @discardableResult
    mutating func update(_ touches: [Touch]) -> Double {
        var farthest = 0.0
        for t in touches {
            if let i = entries.firstIndex(where: { $0.id == t.id }) {
                entries[i].current = t.location
                farthest = max(farthest, entries[i].start.distance(to: t.location))
            }
        }
        return farthest
    }

    mutating func remove(_ touches: [Touch]) {
        for t in touches {
            if let i = entries.firstIndex(where: { $0.id == t.id }) { entries.remove(at: i) }
        }
    }

    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
    }

    var centroid: Point {
        guard !entries.isEmpty else { return .zero }
        var sum = Point.zero
        for e in entries { sum = sum + e.current }
        return sum / Double(entries.count)
    }

    /// The mean distance of the touches from their centroid.
    var span: Double {
        guard entries.count >= 2 else { return 0 }
        let c = centroid
        var sum = 0.0
        for e in entries { sum += e.current.distance(to: c) }
        return sum / Double(entries.count)
    }

    /// The angle of the line from the first touch to the second, in radians, clockwise
    /// from the x axis (y grows downwards).
    var angle: Double? {
        guard entries.count >= 2 else { return nil }
        let a = entries[0].current, b = entries[1].current
        return Double.atan2(y: b.y - a.y, x: b.x - a.x)
    }
}

/// The difference `a - b` of two angles, folded into (-π, π].
func angleDifference(_ a: Double, _ b: Double) -> Double {
    var d = a - b
    while d > Double.pi { d -= 2 * Double.pi }
    while d <= -Double.pi { d += 2 * Double.pi }
    return d
}
