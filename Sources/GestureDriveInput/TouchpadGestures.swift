import GestureKit
import GestureTesting
import RealModule

/// Touchpad gestures as fingers on the pad, for the pad's own driver (libinput) to decide: the
/// same gestures, named as GestureTesting names them (`touchpadScroll`, `touchpadPinch`,
/// `touchpadSwipe`, `touchpadHold`), but made of contacts, not of the driver's decisions.
///
/// Figures, each with its unit and source:
/// - fingers land side by side `fingerSpacingMillimetres` apart (GestureTesting's 18 mm, an
///   adult index fingertip's width), centred on the pad, and report at the pad's rate;
/// - a two-finger scroll moves the content `scrollPointsPerMillimetre` points for each
///   millimetre the fingers travel (libinput 1.22 scrolls unaccelerated: measured through
///   sway on the project's Elantech recording, 29.97 mm of travel scrolled 303.8 pt,
///   docs/TESTING.md's table), the fingers moving against the content (natural scrolling off,
///   the default): content that moves up is fingers that move down;
/// - a pinch's fingers land `pinchFingerDistanceMillimetres` apart and end `scale` times as far
///   apart: libinput's pinch scale is the fingers' distance over their distance when the
///   gesture began, which it decides after a few millimetres, so an app sees a little less
///   than `scale` (the driver's threshold eats the start);
/// - a swipe's fingers travel `offset / scrollPointsPerMillimetre` millimetres: libinput
///   accelerates a swipe's motion, so what an app receives depends on its speed as well;
/// - a hold rests the fingers without moving for `duration`.
/// A gesture starts with its fingers down (one report) and ends with a report of none.
public struct TouchpadGestures: Sendable {
    public let device: VirtualDevice
    /// The pad's size in millimetres (from its axes' resolution).
    public let padSize: Size

    /// Content points scrolled by a millimetre of two-finger travel (libinput 1.22, see above).
    public static let scrollPointsPerMillimetre = 10.14 /* pt per mm */
    /// Fingers side by side, centre to centre (GestureTesting's figure).
    public static let fingerSpacingMillimetres = GestureTester.fingerSpacingMillimetres /* mm */
    /// A pinch's fingers' distance at landing: 30 mm, room on a 102 mm pad to spread them three
    /// times as far.
    public static let pinchFingerDistanceMillimetres = 30.0 /* mm */
    /// How long fingers rest before moving and after stopping: two reports, as a hand does
    /// before a gesture begins and a driver needs to see the fingers still.
    static let restReports = 2

    public init(device: VirtualDevice) {
        self.device = device
        self.padSize = device.sizeMillimetres ?? Size(width: 100, height: 70)
    }

    var interval: Duration { .nanoseconds(Int64((1e9 / Double(max(1, device.reportRate))).rounded())) }

    func reports(over duration: Duration) -> Int {
        max(1, Int((Double(duration.nanosecondCount) / Double(interval.nanosecondCount)).rounded()))
    }

    func offset(_ k: Int, of n: Int, over duration: Duration) -> Duration {
        .nanoseconds(Int64((Double(k) * Double(duration.nanosecondCount) / Double(n)).rounded()))
    }

    var centre: Point { Point(x: padSize.width / 2, y: padSize.height / 2) }

    /// Fingers side by side around `centre`.
    func sideBySide(_ count: Int, spacing: Double = fingerSpacingMillimetres) -> [Point] {
        (0..<count).map { i in centre + Point(x: (Double(i) - Double(count - 1) / 2) * spacing, y: 0) }
    }

    /// Fingers at `starts` moving by `motion(f)` for f from 0 to 1 over `duration`, resting
    /// `restReports` before and after, then lifting.
    func stroke(_ starts: [Point], duration: Duration, motion: (Int, Point, Double) -> Point) -> [PadFrame] {
        var frames: [PadFrame] = []
        var t = Instant.zero
        func contacts(_ f: Double) -> [Int: Point] {
            Dictionary(uniqueKeysWithValues: starts.enumerated().map { ($0.offset, clamp(motion($0.offset, $0.element, f))) })
        }
        for _ in 0..<Self.restReports {
            frames.append(PadFrame(time: t, contacts: contacts(0)))
            t = t + interval
        }
        let start = frames.last!.time
        let n = reports(over: duration)
        for k in 1...n {
            frames.append(PadFrame(time: start + offset(k, of: n, over: duration), contacts: contacts(Double(k) / Double(n))))
        }
        t = frames.last!.time
        for _ in 0..<Self.restReports {
            t = t + interval
            frames.append(PadFrame(time: t, contacts: contacts(1)))
        }
        frames.append(PadFrame(time: t + interval, contacts: [:]))
        return frames
    }

    func clamp(_ p: Point) -> Point {
        Point(x: Swift.min(padSize.width - 1, Swift.max(1, p.x)), y: Swift.min(padSize.height - 1, Swift.max(1, p.y)))
    }

    func check(_ fingers: Int, least: Int) throws {
        guard fingers >= least, fingers <= min(5, device.slots) else {
            throw GestureTestError.invalidParameter(parameter: "fingers", value: "\(fingers)",
                                                    why: "must be \(least) to \(min(5, device.slots)) on this touchpad")
        }
    }

    func check(_ duration: Duration) throws {
        guard duration > .zero else {
            throw GestureTestError.invalidParameter(parameter: "duration", value: "\(duration)", why: "must be longer than zero")
        }
    }

    /// Two fingers scroll the content by `offset` points (GestureTesting's `touchpadScroll`:
    /// the content moves by it) over `duration`.
    public func scroll(by offset: Point, duration: Duration = .milliseconds(300)) throws -> [PadFrame] {
        try check(duration)
        guard offset.isFinite, offset != .zero else {
            throw GestureTestError.invalidParameter(parameter: "by", value: "\(offset)", why: "must be a finite, non-zero offset")
        }
        let travel = Point(x: -offset.x / Self.scrollPointsPerMillimetre, y: -offset.y / Self.scrollPointsPerMillimetre)
        // Start where the travel fits on the pad.
        let starts = sideBySide(2).map { $0 - travel * 0.5 }
        return stroke(starts, duration: duration) { _, start, f in start + travel * f }
    }

    /// Two (or more) fingers pinch: their distance goes from `pinchFingerDistanceMillimetres`
    /// to `scale` times it while the line between them turns `rotation` radians (clockwise
    /// positive), over `duration`.
    public func pinch(scale: Double, rotation: Double = 0, fingers: Int = 2, duration: Duration = .milliseconds(500)) throws -> [PadFrame] {
        try check(fingers, least: 2)
        try check(duration)
        guard scale.isFinite, scale > 0 else {
            throw GestureTestError.invalidParameter(parameter: "scale", value: "\(scale)", why: "must be a positive number (1: no change)")
        }
        let room = Swift.min(padSize.width, padSize.height) - 4
        let d0 = Swift.min(Self.pinchFingerDistanceMillimetres, room / Swift.max(1, scale))
        let c = centre
        return stroke((0..<fingers).map { _ in c }, duration: duration) { i, _, f in
            let angle = 2 * Double.pi * Double(i) / Double(fingers) + rotation * f
            let r = d0 * (1 + (scale - 1) * f) / 2
            return c + Point(x: r * Double.cos(angle), y: r * Double.sin(angle))
        }
    }

    /// `fingers` fingers (3 or 4) side by side travel `offset / scrollPointsPerMillimetre`
    /// millimetres over `duration`.
    public func swipe(fingers: Int = 3, by offset: Point, duration: Duration = .milliseconds(300)) throws -> [PadFrame] {
        try check(fingers, least: 3)
        try check(duration)
        let travel = Point(x: offset.x / Self.scrollPointsPerMillimetre, y: offset.y / Self.scrollPointsPerMillimetre)
        let starts = sideBySide(fingers).map { $0 - travel * 0.5 }
        return stroke(starts, duration: duration) { _, start, f in start + travel * f }
    }

    /// `fingers` fingers rest on the pad for `duration` without moving (libinput's hold).
    public func hold(fingers: Int = 2, duration: Duration = .milliseconds(300)) throws -> [PadFrame] {
        try check(fingers, least: 1)
        try check(duration)
        let starts = sideBySide(fingers)
        let n = reports(over: duration)
        var frames = (0...n).map { k in
            PadFrame(time: .zero + offset(k, of: n, over: duration),
                     contacts: Dictionary(uniqueKeysWithValues: starts.enumerated().map { ($0.offset, $0.element) }))
        }
        frames.append(PadFrame(time: frames.last!.time + interval, contacts: [:]))
        return frames
    }

    /// A click of the pad's button under one finger resting in its middle (GestureTesting's
    /// `clickHold`).
    public func click() -> [PadFrame] {
        let finger = [0: centre]
        let down = Instant.zero + interval
        let up = down + GestureTester.clickHold
        return [PadFrame(time: .zero, contacts: finger),
                PadFrame(time: down, contacts: finger, button: true),
                PadFrame(time: up, contacts: finger, button: false),
                PadFrame(time: up + interval, contacts: [:])]
    }
}
