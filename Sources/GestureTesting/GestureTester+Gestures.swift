import GestureKit
import RealModule

/// Touchscreen gestures from parameters. Where a parameter is left out, its value comes from
/// the recognizers that would see the gesture (those of the view under it and its
/// superviews): a tap is held for half the shortest `maximumTapDuration` there (at most
/// 50 ms), taps follow each other at half the shortest `maximumTapInterval` (at most
/// 100 ms), a long press holds the longest `minimumPressDuration` there plus
/// `longPressMargin`. Nothing is scaled by a fudge factor: each margin is a named constant
/// below.
extension GestureTester {
    /// How a moving gesture ends.
    public enum Release: Hashable, Sendable {
        /// The fingers stop, stay still until the engine's velocity estimate reads zero
        /// (`VelocityTracker.stopGapNanoseconds` and one sample more), then lift: no fling.
        case stopped
        /// The fingers lift while moving, at the gesture's speed: a fling (a scroll view
        /// keeps the speed and decelerates).
        case moving
    }

    /// The longest a tap is held: 50 ms (a brisk tap; the recognizers allow 500 ms).
    public static let tapHold: Duration = .milliseconds(50)
    /// The longest pause between the taps of a multiple tap: 100 ms (the recognizers allow 300 ms).
    public static let tapPause: Duration = .milliseconds(100)
    /// How much longer than the longest `minimumPressDuration` a long press is held: 100 ms,
    /// so the press is well past its deadline when the finger lifts.
    public static let longPressMargin: Duration = .milliseconds(100)
    /// How far apart side-by-side fingers land, centre to centre: 40 pt (about 6 mm on a
    /// 163-points-per-inch screen, two fingertips touching).
    public static let fingerSpacing = 40.0 /* pt */
    /// How far a swipe travels beyond the longest `minimumDistance` of the swipes under it:
    /// 50 pt.
    public static let swipeOvershoot = 50.0 /* pt */
    /// How far inside the screen's edge a screen-edge pan lands: 1 pt (a finger coming in
    /// from the bezel).
    public static let edgeInset = 1.0 /* pt */

    // MARK: Taps

    /// Taps `fingers` fingers side by side at `point`, `taps` times.
    public func tap(at point: Point, fingers: Int = 1, taps: Int = 1, stagger: Duration = .zero) {
        let hold = tapHold(at: point), pause = tapPause(at: point)
        for k in 0..<max(1, taps) {
            let touches = land(fingerPositions(fingers, around: point), stagger: stagger, after: k == 0 ? nil : pause)
            liftAll(touches, after: hold, stagger: stagger)
        }
    }

    /// Taps `view` at its centre; throws if another view would get the touch.
    public func tap(on view: View, fingers: Int = 1, taps: Int = 1, stagger: Duration = .zero) throws {
        let centre = try aim(at: view)
        for p in fingerPositions(fingers, around: centre) { try check(p, reaches: view) }
        tap(at: centre, fingers: fingers, taps: taps, stagger: stagger)
    }

    /// A double tap at `point`.
    public func doubleTap(at point: Point) { tap(at: point, taps: 2) }

    /// A double tap on `view`.
    public func doubleTap(on view: View) throws { try tap(on: view, taps: 2) }

    /// Presses `fingers` fingers at `point` for `duration` (by default the longest
    /// `minimumPressDuration` of the long presses there, plus `longPressMargin`), then drags
    /// them to `dragTo` if given (over `dragDuration`), then lifts them.
    public func longPress(at point: Point, fingers: Int = 1, duration: Duration? = nil,
                          thenDragTo dragTo: Point? = nil, dragDuration: Duration = .milliseconds(300)) {
        let presses = recognizers(LongPressGestureRecognizer.self, at: point)
        let minimum = presses.map(\.minimumPressDuration).max() ?? GestureDefaults.minimumPressDuration
        let touches = land(fingerPositions(fingers, around: point), stagger: .zero, after: nil)
        let release = now + (duration ?? minimum + GestureTester.longPressMargin)
        guard let dragTo else {
            lift(touches, at: release)
            return
        }
        wait(release - now)
        let starts = touches.map(\.location)
        for f in fractions(over: dragDuration) {
            move(zip(touches, starts).map { ($0, $1 + (dragTo - point) * f) })
        }
        liftAll(touches, after: sampleInterval, stagger: .zero)
    }

    /// A long press on `view`'s centre.
    public func longPress(on view: View, fingers: Int = 1, duration: Duration? = nil) throws {
        let centre = try aim(at: view)
        for p in fingerPositions(fingers, around: centre) { try check(p, reaches: view) }
        longPress(at: centre, fingers: fingers, duration: duration)
    }

    // MARK: Drags, flings, swipes, pans

    /// Drags one finger along `path` (screen points) at constant speed over `duration`, one
    /// event every sample, then releases it (`release`: stopped by default, no fling).
    public func drag(along path: [Point], duration: Duration = .milliseconds(300), release: Release = .stopped) {
        guard let first = path.first else { return }
        stroke(starts: [first], offsets: path.map { $0 - first }, duration: duration, release: release)
    }

    /// Drags one finger from `start` to `end` over `duration`.
    public func drag(from start: Point, to end: Point, duration: Duration = .milliseconds(300), release: Release = .stopped) {
        drag(along: [start, end], duration: duration, release: release)
    }

    /// Drags one finger from `view`'s centre by `offset`.
    public func drag(on view: View, by offset: Point, duration: Duration = .milliseconds(300), release: Release = .stopped) throws {
        let centre = try aim(at: view)
        drag(from: centre, to: centre + offset, duration: duration, release: release)
    }

    /// Pans `fingers` fingers side by side from around `point` by `offset` over `duration`.
    public func pan(fingers: Int, at point: Point, by offset: Point, duration: Duration = .milliseconds(300),
                    release: Release = .stopped, stagger: Duration = .zero) {
        stroke(starts: fingerPositions(fingers, around: point), offsets: [.zero, offset], duration: duration,
               release: release, stagger: stagger)
    }

    /// Pans `fingers` fingers from `view`'s centre by `offset`.
    public func pan(fingers: Int, on view: View, by offset: Point, duration: Duration = .milliseconds(300),
                    release: Release = .stopped, stagger: Duration = .zero) throws {
        let centre = try aim(at: view)
        for p in fingerPositions(fingers, around: centre) { try check(p, reaches: view) }
        pan(fingers: fingers, at: centre, by: offset, duration: duration, release: release, stagger: stagger)
    }

    /// Flings `fingers` fingers from `point` by `offset`, moving at a constant `velocity`
    /// (points a second) over `offset`'s length divided by `velocity`, one event every
    /// sample and the last exactly at the end, then lifting at once, so the engine's release
    /// velocity (`PanGestureRecognizer.velocity`) is `velocity` along `offset`.
    public func fling(from point: Point, by offset: Point, velocity: Double, fingers: Int = 1) throws {
        let length = (offset.x * offset.x + offset.y * offset.y).squareRoot()
        guard velocity > 0, length > 0 else {
            throw GestureTestError.invalidGesture("a fling needs a positive velocity and a non-zero offset; got \(fmt(velocity)) pt/s over \(fmt(length)) pt")
        }
        stroke(starts: fingerPositions(fingers, around: point), offsets: [.zero, offset],
               duration: Duration(seconds: length / velocity), release: .moving)
    }

    /// Flings from `view`'s centre; throws if a finger would land on another view.
    public func fling(on view: View, by offset: Point, velocity: Double, fingers: Int = 1) throws {
        let centre = try aim(at: view)
        for p in fingerPositions(fingers, around: centre) { try check(p, reaches: view) }
        try fling(from: centre, by: offset, velocity: velocity, fingers: fingers)
    }

    /// Swipes `fingers` fingers from `point` in `direction` (one of the four). `distance`
    /// defaults to the longest `minimumDistance` of the swipes there plus `swipeOvershoot`;
    /// `velocity` to that distance over half the shortest `maximumDuration` there. The
    /// fingers lift moving.
    public func swipe(from point: Point, _ direction: SwipeDirection, fingers: Int = 1,
                      distance: Double? = nil, velocity: Double? = nil) throws {
        let swipes = recognizers(SwipeGestureRecognizer.self, at: point)
        let d = distance ?? (swipes.map(\.minimumDistance).max() ?? GestureDefaults.swipeMinimumDistancePoints) + GestureTester.swipeOvershoot
        let limit = swipes.map(\.maximumDuration).min() ?? GestureDefaults.swipeMaximumDuration
        let v = velocity ?? d / (Double(limit.nanosecondCount) / 2e9)
        let unit: Point
        switch direction {
        case .right: unit = Point(x: 1, y: 0)
        case .left: unit = Point(x: -1, y: 0)
        case .up: unit = Point(x: 0, y: -1)
        case .down: unit = Point(x: 0, y: 1)
        default: throw GestureTestError.invalidGesture("a swipe goes one way: right, left, up or down, not \(direction)")
        }
        try fling(from: point, by: unit * d, velocity: v, fingers: fingers)
    }

    /// Swipes from `view`'s centre.
    public func swipe(on view: View, _ direction: SwipeDirection, fingers: Int = 1,
                      distance: Double? = nil, velocity: Double? = nil) throws {
        let centre = try aim(at: view)
        for p in fingerPositions(fingers, around: centre) { try check(p, reaches: view) }
        try swipe(from: centre, direction, fingers: fingers, distance: distance, velocity: velocity)
    }

    /// Pans one finger in from the screen's `edge` (one of the four), landing `edgeInset`
    /// inside it, halfway along it, and moving `distance` points inward over `duration`.
    public func edgePan(from edge: ScreenEdges, distance: Double = 200, duration: Duration = .milliseconds(300),
                        release: Release = .stopped) throws {
        let s = screen, inset = GestureTester.edgeInset
        let start: Point, inward: Point
        switch edge {
        case .left: start = Point(x: s.minX + inset, y: s.midY); inward = Point(x: 1, y: 0)
        case .right: start = Point(x: s.maxX - inset, y: s.midY); inward = Point(x: -1, y: 0)
        case .top: start = Point(x: s.midX, y: s.minY + inset); inward = Point(x: 0, y: 1)
        case .bottom: start = Point(x: s.midX, y: s.maxY - inset); inward = Point(x: 0, y: -1)
        default: throw GestureTestError.invalidGesture("an edge pan comes from one edge: left, right, top or bottom, not \(edge)")
        }
        drag(from: start, to: start + inward * distance, duration: duration, release: release)
    }

    // MARK: Pinch and rotation

    /// Pinches two fingers around `centre`: they land `fingerDistance` points apart on a line
    /// at `angle` radians (0: side by side), then move symmetrically over `duration` until
    /// the pinch recognizers there report `scale` and the line has turned `rotation` radians
    /// (clockwise positive), then lift.
    ///
    /// A pinch recognizer's scale is relative to the span it began at (GestureKit's rule,
    /// PinchStateMachine), so the fingers go on to `scale` times the distance they were
    /// apart when the first pinch recognizer there began (the distance they landed at when
    /// none began); a rotation recognizer's rotation is from the landing line, so the line
    /// turns by `rotation` in all.
    public func pinch(at centre: Point, scale: Double, rotation: Double = 0, fingerDistance: Double = 200,
                      angle: Double = 0, duration: Duration = .milliseconds(500), stagger: Duration = .zero) throws {
        guard scale > 0, fingerDistance > 0 else {
            throw GestureTestError.invalidGesture("a pinch needs a positive scale and finger distance; got scale \(fmt(scale)), \(fmt(fingerDistance)) pt apart")
        }
        func positions(_ distance: Double, _ turn: Double) -> [Point] {
            let half = Point(x: Double.cos(angle + turn), y: Double.sin(angle + turn)) * (distance / 2)
            return [centre - half, centre + half]
        }
        let pinches = recognizers(PinchGestureRecognizer.self, at: centre)
        let touches = land(positions(fingerDistance, 0), stagger: stagger, after: nil)
        var target = fingerDistance * scale
        var began = false
        for f in fractions(over: duration) {
            let distance = fingerDistance + (target - fingerDistance) * f
            let mark = records.count
            move(Array(zip(touches, positions(distance, rotation * f))))
            if !began, records[mark...].contains(where: { event in
                if case let .transition(t) = event { return t.to == .began && pinches.contains { $0 === t.recognizer } }
                return false
            }) {
                began = true
                // From here the fingers go on to `scale` times this distance.
                target = distance * scale
            }
        }
        liftAll(touches, after: sampleInterval, stagger: stagger)
    }

    /// Pinches on `view`'s centre; throws if a finger would land on another view.
    public func pinch(on view: View, scale: Double, rotation: Double = 0, fingerDistance: Double = 200,
                      angle: Double = 0, duration: Duration = .milliseconds(500), stagger: Duration = .zero) throws {
        let centre = try aim(at: view)
        let half = Point(x: Double.cos(angle), y: Double.sin(angle)) * (fingerDistance / 2)
        for p in [centre - half, centre + half] { try check(p, reaches: view) }
        try pinch(at: centre, scale: scale, rotation: rotation, fingerDistance: fingerDistance, angle: angle,
                  duration: duration, stagger: stagger)
    }

    /// Turns two fingers around `centre` by `angle` radians (clockwise positive), keeping
    /// their distance: a rotation recognizer there ends with `rotation == angle`.
    public func rotate(at centre: Point, by angle: Double, fingerDistance: Double = 200,
                       duration: Duration = .milliseconds(500)) throws {
        try pinch(at: centre, scale: 1, rotation: angle, fingerDistance: fingerDistance, duration: duration)
    }

    /// Turns two fingers on `view`'s centre.
    public func rotate(on view: View, by angle: Double, fingerDistance: Double = 200,
                       duration: Duration = .milliseconds(500)) throws {
        try pinch(on: view, scale: 1, rotation: angle, fingerDistance: fingerDistance, duration: duration)
    }

    // MARK: The parts

    /// `count` finger positions side by side (along x), `fingerSpacing` apart, centred on `point`.
    func fingerPositions(_ count: Int, around point: Point) -> [Point] {
        let n = max(1, count)
        return (0..<n).map { i in point + Point(x: (Double(i) - Double(n - 1) / 2) * GestureTester.fingerSpacing, y: 0) }
    }

    /// Lands fingers at `points`: all in one event, or `stagger` apart; the first lands one
    /// sample after `now` (or `after` after it).
    func land(_ points: [Point], stagger: Duration, after pause: Duration?) -> [TestTouch] {
        let first = pause.map { now + $0 }
        if stagger == .zero { return touchesDown(at: points, time: first) }
        var touches: [TestTouch] = []
        for (i, p) in points.enumerated() {
            touches += touchesDown(at: [p], time: i == 0 ? first : now + stagger)
        }
        return touches
    }

    /// Lifts fingers `after` the latest event, all at once or `stagger` apart, in the order
    /// they landed.
    func liftAll(_ touches: [TestTouch], after delay: Duration, stagger: Duration) {
        if stagger == .zero {
            lift(touches, at: now + delay)
        } else {
            for (i, t) in touches.enumerated() { lift([t], at: now + (i == 0 ? delay : stagger)) }
        }
    }

    /// Fingers landing at `starts` and moving together along the polyline `offsets` (from
    /// the landing point, first offset zero) at constant speed over `duration`, then
    /// released.
    func stroke(starts: [Point], offsets: [Point], duration: Duration, release: Release, stagger: Duration = .zero) {
        let touches = land(starts, stagger: stagger, after: nil)
        let path = Polyline(offsets)
        func offset(at fraction: Double) -> Point { path.point(at: fraction) }
        let steps = fractions(over: duration)
        switch release {
        case .moving:
            // A sample every `sampleInterval` along the path at constant speed, the last one
            // exactly at its end and time; the lift one sample later where that move was (a
            // touchscreen lifts where it last reported). Every sample the engine's velocity
            // estimate sees lies on the line: the release velocity is the gesture's speed.
            let start = now, total = duration.nanosecondCount, step = sampleInterval.nanosecondCount
            var elapsed = step
            while elapsed < total {
                let f = Double(elapsed) / Double(total)
                move(zip(touches, starts).map { ($0, $1 + offset(at: f)) }, at: start + .nanoseconds(elapsed))
                elapsed += step
            }
            move(zip(touches, starts).map { ($0, $1 + offset(at: 1)) }, at: start + duration)
            liftAll(touches, after: sampleInterval, stagger: stagger)
        case .stopped:
            for f in steps { move(zip(touches, starts).map { ($0, $1 + offset(at: f)) }) }
            liftAll(touches, after: .nanoseconds(VelocityTracker.stopGapNanoseconds) + sampleInterval, stagger: stagger)
        }
    }

    /// How long a tap at `point` is held: half the shortest `maximumTapDuration` of the taps
    /// there, at most `tapHold`.
    func tapHold(at point: Point) -> Duration {
        let limit = recognizers(TapGestureRecognizer.self, at: point).map(\.maximumTapDuration).min()
        return limit.map { min(GestureTester.tapHold, $0 / 2) } ?? GestureTester.tapHold
    }

    /// The pause between taps at `point`: half the shortest `maximumTapInterval` there, at
    /// most `tapPause`.
    func tapPause(at point: Point) -> Duration {
        let limit = recognizers(TapGestureRecognizer.self, at: point).map(\.maximumTapInterval).min()
        return limit.map { min(GestureTester.tapPause, $0 / 2) } ?? GestureTester.tapPause
    }
}
