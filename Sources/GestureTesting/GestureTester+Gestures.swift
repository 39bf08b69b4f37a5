import GestureKit
import RealModule

/// Touchscreen gestures from parameters. Where a parameter is left out, its value comes from
/// the tester's ``GestureTester/variation`` (measured people: `GestureTester+People.swift`)
/// and from the recognizers that would see the gesture (those of the view under it and its
/// superviews): a tap is held `tapHold` (at most half the shortest `maximumTapDuration`
/// there), taps and gestures follow each other `tapPause` apart (at most half the shortest
/// `maximumTapInterval`), a long press holds the longest `minimumPressDuration` there plus
/// `longPressMargin`. Every parameter is checked before any event is made: a bad one throws
/// ``GestureTestError/invalidParameter(parameter:value:why:)`` naming it.
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

    /// The most fingers a gesture lands: two hands.
    public static let maximumFingers = 10

    // MARK: Taps

    /// Taps `fingers` fingers side by side at `point`, `taps` times.
    public func tap(at point: Point, fingers: Int = 1, taps: Int = 1, stagger: Duration? = nil) throws {
        try checkPoint(point, "point")
        try makeTap(at: point, positions: try fingerPositions(fingers, around: point), taps: taps, stagger: stagger)
    }

    func makeTap(at point: Point, positions: [Point], taps: Int, stagger: Duration?) throws {
        try checkCount(taps, "taps", "must be 1 or more")
        let stagger = try checkStagger(stagger)
        let recognizers = recognizers(TapGestureRecognizer.self, at: point)
        let hold = tapHold(recognizers), pause = tapPause(recognizers)
        var start = try gestureStart(pause: pause)
        for _ in 0..<taps {
            let touches = land(positions, at: start, stagger: stagger)
            let reported = Swift.max(hold - variation.reportLatency, sampleInterval)
            liftAll(touches, at: start + variation.reportLatency + reported, stagger: stagger)
            start = now + pause
        }
        endGesture()
    }

    /// Taps `view` at its centre (or at `point`, in the view's own coordinates); throws if
    /// another view would get a finger's touch.
    public func tap(on view: View, at spot: Point? = nil, fingers: Int = 1, taps: Int = 1, stagger: Duration? = nil) throws {
        let point = try aim(at: view, point: spot)
        let positions = try fingerPositions(fingers, around: point)
        // One finger lands where the aim checked; several are each checked.
        if positions.count > 1 { for p in positions { try check(p, reaches: view) } }
        try makeTap(at: point, positions: positions, taps: taps, stagger: stagger)
    }

    /// A double tap at `point`.
    public func doubleTap(at point: Point) throws { try tap(at: point, taps: 2) }

    /// A double tap on `view`.
    public func doubleTap(on view: View, at spot: Point? = nil) throws { try tap(on: view, at: spot, taps: 2) }

    /// Presses `fingers` fingers at `point` for `duration` (by default the longest
    /// `minimumPressDuration` of the long presses there, plus `longPressMargin`), then drags
    /// them to `dragTo` if given (over `dragDuration`), then lifts them.
    public func longPress(at point: Point, fingers: Int = 1, duration: Duration? = nil,
                          thenDragTo dragTo: Point? = nil, dragDuration: Duration = .milliseconds(300)) throws {
        try checkPoint(point, "point")
        if let duration { try checkDuration(duration, "duration") }
        if let dragTo { try checkPoint(dragTo, "thenDragTo") }
        try checkDuration(dragDuration, "dragDuration")
        let positions = try fingerPositions(fingers, around: point)
        let presses = recognizers(LongPressGestureRecognizer.self, at: point)
        let minimum = presses.map(\.minimumPressDuration).max() ?? GestureDefaults.minimumPressDuration
        let start = try gestureStart(pause: tapPause(at: point))
        let touches = land(positions, at: start + variation.reportLatency, stagger: variation.stagger)
        let release = start + (duration ?? minimum + GestureTester.longPressMargin)
        guard let dragTo else {
            liftAll(touches, at: Swift.max(release, now + sampleInterval), stagger: variation.stagger)
            endGesture()
            return
        }
        wait(until: release)
        let starts = touches.map(\.location)
        let motionStart = now
        for (k, f) in fractions(over: dragDuration).enumerated() {
            move(zip(touches, starts).map { ($0, jittered($1 + (dragTo - point) * f)) },
                 at: motionStart + evenOffset(k + 1, of: samples(over: dragDuration), over: dragDuration))
        }
        liftAll(touches, at: now + sampleInterval, stagger: variation.stagger)
        endGesture()
    }

    /// A long press on `view`'s centre (or at `offset` from it).
    public func longPress(on view: View, at spot: Point? = nil, fingers: Int = 1, duration: Duration? = nil) throws {
        let point = try aim(at: view, point: spot)
        for p in try fingerPositions(fingers, around: point) { try check(p, reaches: view) }
        try longPress(at: point, fingers: fingers, duration: duration)
    }

    // MARK: Drags, flings, swipes, pans

    /// Drags one finger along `path` (screen points) at constant speed over `duration`, one
    /// event every sample, then releases it (`release`: stopped by default, no fling).
    public func drag(along path: [Point], duration: Duration = .milliseconds(300), release: Release = .stopped) throws {
        guard let first = path.first else {
            throw GestureTestError.invalidParameter(parameter: "path", value: "[]", why: "must have a point to land on")
        }
        for (i, p) in path.enumerated() { try checkPoint(p, "path[\(i)]") }
        try checkDuration(duration, "duration")
        try stroke(starts: [first], offsets: path.map { $0 - first }, duration: duration, release: release, stagger: .zero)
    }

    /// Drags one finger from `start` to `end` over `duration`.
    public func drag(from start: Point, to end: Point, duration: Duration = .milliseconds(300), release: Release = .stopped) throws {
        try checkPoint(start, "from")
        try checkPoint(end, "to")
        try drag(along: [start, end], duration: duration, release: release)
    }

    /// Drags one finger from `view`'s centre (or from `point`, in its own coordinates) by `offset`.
    public func drag(on view: View, at spot: Point? = nil, by offset: Point, duration: Duration = .milliseconds(300),
                     release: Release = .stopped) throws {
        let point = try aim(at: view, point: spot)
        try checkPoint(offset, "by")
        try drag(from: point, to: point + offset, duration: duration, release: release)
    }

    /// Pans `fingers` fingers side by side from around `point` by `offset` over `duration`.
    public func pan(fingers: Int, at point: Point, by offset: Point, duration: Duration = .milliseconds(300),
                    release: Release = .stopped, stagger: Duration? = nil) throws {
        try checkPoint(point, "at")
        try checkPoint(offset, "by")
        try checkDuration(duration, "duration")
        let positions = try fingerPositions(fingers, around: point)
        try stroke(starts: positions, offsets: [.zero, offset], duration: duration, release: release, stagger: try checkStagger(stagger))
    }

    /// Pans `fingers` fingers from `view`'s centre (or `point`, in its own coordinates) by `offset`.
    public func pan(fingers: Int, on view: View, at spot: Point? = nil, by offset: Point, duration: Duration = .milliseconds(300),
                    release: Release = .stopped, stagger: Duration? = nil) throws {
        let point = try aim(at: view, point: spot)
        for p in try fingerPositions(fingers, around: point) { try check(p, reaches: view) }
        try pan(fingers: fingers, at: point, by: offset, duration: duration, release: release, stagger: stagger)
    }

    /// Flings `fingers` fingers from `point` by `offset`, moving at a constant `velocity`
    /// (points a second) over `offset`'s length divided by `velocity`, in evenly spaced
    /// samples about `sampleInterval` apart, the last exactly at the end, then lifting one
    /// sample later, so the engine's release velocity (`PanGestureRecognizer.velocity`) is
    /// `velocity` along `offset`.
    public func fling(from point: Point, by offset: Point, velocity: Double, fingers: Int = 1) throws {
        try checkPoint(point, "from")
        try checkPoint(offset, "by")
        let length = (offset.x * offset.x + offset.y * offset.y).squareRoot()
        guard velocity.isFinite, velocity > 0 else {
            throw GestureTestError.invalidParameter(parameter: "velocity", value: fmt(velocity), why: "must be a positive number of points a second")
        }
        guard length > 0 else {
            throw GestureTestError.invalidParameter(parameter: "by", value: "(0, 0)", why: "must move: a fling needs a non-zero offset")
        }
        let positions = try fingerPositions(fingers, around: point)
        try stroke(starts: positions, offsets: [.zero, offset], duration: Duration(seconds: length / velocity), release: .moving,
                   stagger: variation.stagger)
    }

    /// Flings from `view`'s centre (or `point`, in its own coordinates); throws if a finger would land on
    /// another view.
    public func fling(on view: View, at spot: Point? = nil, by offset: Point, velocity: Double, fingers: Int = 1) throws {
        let point = try aim(at: view, point: spot)
        for p in try fingerPositions(fingers, around: point) { try check(p, reaches: view) }
        try fling(from: point, by: offset, velocity: velocity, fingers: fingers)
    }

    /// Swipes `fingers` fingers from `point` in `direction` (one of the four). `distance`
    /// defaults to the longest `minimumDistance` of the swipes there plus `swipeOvershoot`;
    /// `velocity` to that distance over half the shortest `maximumDuration` there. The
    /// fingers lift moving.
    public func swipe(from point: Point, _ direction: SwipeDirection, fingers: Int = 1,
                      distance: Double? = nil, velocity: Double? = nil) throws {
        try checkPoint(point, "from")
        if let distance, !(distance.isFinite && distance > 0) {
            throw GestureTestError.invalidParameter(parameter: "distance", value: fmt(distance), why: "must be a positive number of points")
        }
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
        default:
            throw GestureTestError.invalidParameter(parameter: "direction", value: "\(direction)", why: "must be one way: right, left, up or down")
        }
        try fling(from: point, by: unit * d, velocity: v, fingers: fingers)
    }

    /// Swipes from `view`'s centre (or `point`, in its own coordinates).
    public func swipe(on view: View, at spot: Point? = nil, _ direction: SwipeDirection, fingers: Int = 1,
                      distance: Double? = nil, velocity: Double? = nil) throws {
        let point = try aim(at: view, point: spot)
        for p in try fingerPositions(fingers, around: point) { try check(p, reaches: view) }
        try swipe(from: point, direction, fingers: fingers, distance: distance, velocity: velocity)
    }

    /// Pans one finger in from the screen's `edge` (one of the four), landing the variation's
    /// edge inset (`edgeInsetMillimetres`, 3 mm) inside it, halfway along it, and moving
    /// `distance` points inward over `duration`.
    public func edgePan(from edge: ScreenEdges, distance: Double = 200, duration: Duration = .milliseconds(300),
                        release: Release = .stopped) throws {
        guard distance.isFinite, distance > 0 else {
            throw GestureTestError.invalidParameter(parameter: "distance", value: fmt(distance), why: "must be a positive number of points")
        }
        let s = screen, inset = variation.edgeInsetMillimetres * pointsPerMillimetre
        let start: Point, inward: Point
        switch edge {
        case .left: start = Point(x: s.minX + inset, y: s.midY); inward = Point(x: 1, y: 0)
        case .right: start = Point(x: s.maxX - inset, y: s.midY); inward = Point(x: -1, y: 0)
        case .top: start = Point(x: s.midX, y: s.minY + inset); inward = Point(x: 0, y: 1)
        case .bottom: start = Point(x: s.midX, y: s.maxY - inset); inward = Point(x: 0, y: -1)
        default:
            throw GestureTestError.invalidParameter(parameter: "from", value: "\(edge)", why: "must be one edge: left, right, top or bottom")
        }
        try drag(from: start, to: start + inward * distance, duration: duration, release: release)
    }

    // MARK: Pinch and rotation

    /// Pinches two fingers around `centre`: they land `fingerDistance` points apart (by
    /// default `pinchFingerDistanceMillimetres`, at most 60 % of the view there along their
    /// line) on a line at `fingerLineAngle` radians (0: side by side, π/2: one above the
    /// other), then move symmetrically over `duration` until the pinch recognizers there
    /// report `scale` and the line has turned `rotation` radians (clockwise positive), then
    /// lift.
    ///
    /// A pinch recognizer's scale is relative to the span it began at (GestureKit's rule,
    /// PinchStateMachine), so the fingers go on to `scale` times the distance they were
    /// apart when the first pinch recognizer there began (the distance they landed at when
    /// none began); a rotation recognizer's rotation is from the landing line, so the line
    /// turns by `rotation` in all.
    public func pinch(at centre: Point, scale: Double, rotation: Double = 0, fingerDistance: Double? = nil,
                      fingerLineAngle: Double = 0, duration: Duration = .milliseconds(500), stagger: Duration? = nil) throws {
        try checkPoint(centre, "at")
        let distance = try pinchDistance(fingerDistance, at: centre, view: nil, angle: fingerLineAngle)
        try checkPinch(scale: scale, rotation: rotation, angle: fingerLineAngle, duration: duration)
        let positions = pinchPositions(centre, distance, fingerLineAngle)
        for (i, p) in positions.enumerated() where !screen.contains(p) {
            throw GestureTestError.invalidParameter(
                parameter: "fingerDistance", value: fmt(distance),
                why: "puts finger \(i + 1) at (\(fmt(p.x)), \(fmt(p.y))), off the screen \(describe(screen)): a smaller distance fits")
        }
        try makePinch(centre: centre, scale: scale, rotation: rotation, distance: distance, angle: fingerLineAngle,
                      duration: duration, stagger: try checkStagger(stagger))
    }

    /// Pinches on `view`'s centre (or `point`, in its own coordinates); throws if a finger would land on
    /// another view. The default finger distance fits the view.
    public func pinch(on view: View, at spot: Point? = nil, scale: Double, rotation: Double = 0, fingerDistance: Double? = nil,
                      fingerLineAngle: Double = 0, duration: Duration = .milliseconds(500), stagger: Duration? = nil) throws {
        let centre = try aim(at: view, point: spot)
        let distance = try pinchDistance(fingerDistance, at: centre, view: view, angle: fingerLineAngle)
        try checkPinch(scale: scale, rotation: rotation, angle: fingerLineAngle, duration: duration)
        for p in pinchPositions(centre, distance, fingerLineAngle) { try check(p, reaches: view) }
        try makePinch(centre: centre, scale: scale, rotation: rotation, distance: distance, angle: fingerLineAngle,
                      duration: duration, stagger: try checkStagger(stagger))
    }

    /// Pinches with the fingers' line at `angle`: before, `angle:` set the line the fingers
    /// land on, which read as a turn.
    @available(*, deprecated, message: "angle: was the line the fingers land on, not a turn: use fingerLineAngle: for the line, rotation: for a turn")
    public func pinch(at centre: Point, scale: Double, rotation: Double = 0, fingerDistance: Double? = nil,
                      angle: Double, duration: Duration = .milliseconds(500), stagger: Duration? = nil) throws {
        try pinch(at: centre, scale: scale, rotation: rotation, fingerDistance: fingerDistance, fingerLineAngle: angle,
                  duration: duration, stagger: stagger)
    }

    /// Pinches on `view` with the fingers' line at `angle` (see the other).
    @available(*, deprecated, message: "angle: was the line the fingers land on, not a turn: use fingerLineAngle: for the line, rotation: for a turn")
    public func pinch(on view: View, scale: Double, rotation: Double = 0, fingerDistance: Double? = nil,
                      angle: Double, duration: Duration = .milliseconds(500), stagger: Duration? = nil) throws {
        try pinch(on: view, scale: scale, rotation: rotation, fingerDistance: fingerDistance, fingerLineAngle: angle,
                  duration: duration, stagger: stagger)
    }

    /// Turns two fingers around `centre` by `angle` radians (clockwise positive), keeping
    /// their distance: a rotation recognizer there ends with `rotation == angle`.
    public func rotate(at centre: Point, by angle: Double, fingerDistance: Double? = nil,
                       duration: Duration = .milliseconds(500)) throws {
        try pinch(at: centre, scale: 1, rotation: angle, fingerDistance: fingerDistance, duration: duration)
    }

    /// Turns two fingers on `view`'s centre (or `point`, in its own coordinates).
    public func rotate(on view: View, at spot: Point? = nil, by angle: Double, fingerDistance: Double? = nil,
                       duration: Duration = .milliseconds(500)) throws {
        try pinch(on: view, at: spot, scale: 1, rotation: angle, fingerDistance: fingerDistance, duration: duration)
    }

    // MARK: The parts

    func pinchPositions(_ centre: Point, _ distance: Double, _ turn: Double) -> [Point] {
        let half = Point(x: Double.cos(turn), y: Double.sin(turn)) * (distance / 2)
        return [centre - half, centre + half]
    }

    /// The pinch's finger distance: the one given, checked, or the default, fitted to the
    /// view (the one given, or the one the hit test gives at `centre`).
    func pinchDistance(_ given: Double?, at centre: Point, view: View?, angle: Double) throws -> Double {
        if let given {
            guard given.isFinite, given > 0 else {
                throw GestureTestError.invalidParameter(parameter: "fingerDistance", value: fmt(given), why: "must be a positive number of points")
            }
            return given
        }
        let standard = GestureTester.pinchFingerDistanceMillimetres * pointsPerMillimetre
        guard let target = view ?? engine.hitTest(centre) else { return standard }
        // The view's extent along the fingers' line, in screen points, through its transform.
        let b = target.bounds
        let a = target.convertToScreen(Point(x: b.minX, y: b.minY)), c = target.convertToScreen(Point(x: b.maxX, y: b.maxY))
        let width = abs(c.x - a.x), height = abs(c.y - a.y)
        let (dx, dy) = (abs(Double.cos(angle)), abs(Double.sin(angle)))
        let extent = Swift.min(dx > 1e-9 ? width / dx : .infinity, dy > 1e-9 ? height / dy : .infinity)
        return Swift.min(standard, 0.6 * extent)
    }

    func checkPinch(scale: Double, rotation: Double, angle: Double, duration: Duration) throws {
        guard scale.isFinite, scale > 0 else {
            throw GestureTestError.invalidParameter(parameter: "scale", value: fmt(scale), why: "must be a positive number (1: no change)")
        }
        guard rotation.isFinite else {
            throw GestureTestError.invalidParameter(parameter: "rotation", value: fmt(rotation), why: "must be a finite number of radians")
        }
        guard angle.isFinite else {
            throw GestureTestError.invalidParameter(parameter: "fingerLineAngle", value: fmt(angle), why: "must be a finite number of radians")
        }
        try checkDuration(duration, "duration")
    }

    func makePinch(centre: Point, scale: Double, rotation: Double, distance fingerDistance: Double, angle: Double,
                   duration: Duration, stagger: Duration) throws {
        let pinches = recognizers(PinchGestureRecognizer.self, at: centre)
        let start = try gestureStart(pause: tapPause(at: centre))
        let touches = land(pinchPositions(centre, fingerDistance, angle), at: start + variation.reportLatency, stagger: stagger)
        var target = fingerDistance * scale
        var began = false
        let motionStart = now, n = samples(over: duration)
        for (k, f) in fractions(over: duration).enumerated() {
            let distance = fingerDistance + (target - fingerDistance) * f
            let mark = records.count
            move(Array(zip(touches, pinchPositions(centre, distance, angle + rotation * f).map(jittered))),
                 at: motionStart + evenOffset(k + 1, of: n, over: duration))
            if !began, records[mark...].contains(where: { event in
                if case let .transition(t) = event { return t.to == .began && pinches.contains { $0 === t.recognizer } }
                return false
            }) {
                began = true
                // From here the fingers go on to `scale` times this distance.
                target = distance * scale
            }
        }
        liftAll(touches, at: now + sampleInterval, stagger: stagger)
        endGesture()
    }

    /// `count` finger positions side by side (along x), the variation's finger spacing apart,
    /// centred on `point`; throws unless 1 to `maximumFingers` fingers all land on the screen.
    func fingerPositions(_ count: Int, around point: Point) throws -> [Point] {
        guard count >= 1, count <= GestureTester.maximumFingers else {
            throw GestureTestError.invalidParameter(parameter: "fingers", value: "\(count)", why: "must be 1 to \(GestureTester.maximumFingers)")
        }
        try checkPoint(point, "point")
        let spacing = variation.fingerSpacingMillimetres * pointsPerMillimetre
        let positions = (0..<count).map { i in point + Point(x: (Double(i) - Double(count - 1) / 2) * spacing, y: 0) }
        if let off = positions.first(where: { !screen.contains($0) }) {
            throw GestureTestError.invalidParameter(
                parameter: "fingers", value: "\(count)",
                why: "do not fit: side by side \(fmt(variation.fingerSpacingMillimetres)) mm (\(fmt(spacing)) pt) apart around (\(fmt(point.x)), \(fmt(point.y))), one lands at (\(fmt(off.x)), \(fmt(off.y))), off the screen \(describe(screen))")
        }
        return positions
    }

    /// Lands fingers at `points` (in the variation's order), the first at `time`: all in one
    /// event, or `stagger` apart. Each is jittered.
    func land(_ points: [Point], at time: Instant, stagger: Duration) -> [TestTouch] {
        if stagger == .zero && variation.jitterMillimetres == 0 { return touchesDown(at: points, time: time) }
        let ordered = variation.reversedTouchOrder ? Array(points.reversed()) : points
        let jittered = ordered.map(jittered)
        if stagger == .zero { return touchesDown(at: jittered, time: time) }
        var touches: [TestTouch] = []
        for (i, p) in jittered.enumerated() {
            touches += touchesDown(at: [p], time: i == 0 ? time : now + stagger)
        }
        return variation.reversedTouchOrder ? touches.reversed() : touches
    }

    /// Lifts fingers, the first at `time`: all at once or `stagger` apart, in the order they
    /// landed.
    func liftAll(_ touches: [TestTouch], at time: Instant, stagger: Duration) {
        if stagger == .zero { return lift(touches, at: time) }
        let ordered = variation.reversedTouchOrder ? Array(touches.reversed()) : touches
        if stagger == .zero {
            lift(ordered, at: time)
        } else {
            for (i, t) in ordered.enumerated() { lift([t], at: i == 0 ? time : now + stagger) }
        }
    }

    /// `point` moved by the variation's jitter: a random offset within `jitterMillimetres`
    /// (uniform over the disc), from the variation's seed.
    func jittered(_ point: Point) -> Point {
        let j = variation.jitterMillimetres * pointsPerMillimetre
        guard j > 0 else { return point }
        let r = j * jitterGenerator.uniform(0...1).squareRoot(), a = jitterGenerator.uniform(0...(2 * .pi))
        return point + Point(x: r * Double.cos(a), y: r * Double.sin(a))
    }

    /// The `k`-th of `n` evenly spaced samples over `duration`: k/n of it, to the nanosecond.
    func evenOffset(_ k: Int, of n: Int, over duration: Duration) -> Duration {
        .nanoseconds(Int64((Double(k) * Double(duration.nanosecondCount) / Double(n)).rounded()))
    }

    /// Fingers landing at `starts` and moving together along the polyline `offsets` (from
    /// the landing point, first offset zero) at constant speed over `duration`, in evenly
    /// spaced samples about `sampleInterval` apart (the last exactly at `duration`), then
    /// released. A report latency loses the path's first part: the touch-down is reported
    /// where the finger is by then.
    func stroke(starts: [Point], offsets: [Point], duration: Duration, release: Release, stagger: Duration) throws {
        let path = Polyline(offsets)
        let start = try gestureStart(pause: tapPause(at: starts[0]))
        let latency = Swift.min(variation.reportLatency, duration / 2)
        let skipped = Double(latency.nanosecondCount) / Double(Swift.max(1, duration.nanosecondCount))
        func offset(at fraction: Double) -> Point { path.point(at: skipped + (1 - skipped) * fraction) }
        let touches = land(starts.map { $0 + offset(at: 0) }, at: start + latency, stagger: stagger)
        let motion = duration - latency
        let motionStart = now, n = samples(over: motion)
        for k in 1...n {
            let f = Double(k) / Double(n)
            move(zip(touches, starts).map { ($0, jittered($1 + offset(at: f))) }, at: motionStart + evenOffset(k, of: n, over: motion))
        }
        switch release {
        case .moving:
            // The lift one sample after the last move, where that move was (a touchscreen
            // lifts where it last reported). Every sample the engine's velocity estimate sees
            // lies on the line: the release velocity is the gesture's speed.
            liftAll(touches, at: now + sampleInterval, stagger: stagger)
        case .stopped:
            liftAll(touches, at: now + .nanoseconds(VelocityTracker.stopGapNanoseconds) + sampleInterval, stagger: stagger)
        }
        endGesture()
    }

    /// How long a tap at `point` is held: the variation's, or `tapHold`, at most half the
    /// shortest `maximumTapDuration` of the taps there.
    func tapHold(at point: Point) -> Duration { tapHold(recognizers(TapGestureRecognizer.self, at: point)) }

    func tapHold(_ taps: [TapGestureRecognizer]) -> Duration {
        let hold = variation.tapHold ?? GestureTester.tapHold
        guard var limit = taps.first?.maximumTapDuration else { return hold }
        for t in taps.dropFirst() { limit = Swift.min(limit, t.maximumTapDuration) }
        return Swift.min(hold, limit / 2)
    }

    /// The pause between taps at `point`, and before the next gesture: the variation's, or
    /// `tapPause`, at most half the shortest `maximumTapInterval` there.
    func tapPause(at point: Point) -> Duration { tapPause(recognizers(TapGestureRecognizer.self, at: point)) }

    func tapPause(_ taps: [TapGestureRecognizer]) -> Duration {
        let pause = variation.tapPause ?? GestureTester.tapPause
        guard var limit = taps.first?.maximumTapInterval else { return pause }
        for t in taps.dropFirst() { limit = Swift.min(limit, t.maximumTapInterval) }
        return Swift.min(pause, limit / 2)
    }

    // MARK: Checking parameters

    func checkPoint(_ p: Point, _ name: String) throws {
        guard p.isFinite else {
            throw GestureTestError.invalidParameter(parameter: name, value: "(\(fmt(p.x)), \(fmt(p.y)))", why: "must be finite (no NaN or infinity)")
        }
    }

    func checkDuration(_ d: Duration, _ name: String) throws {
        guard d > .zero else {
            throw GestureTestError.invalidParameter(parameter: name, value: swiftDuration(d), why: "must be longer than zero")
        }
    }

    func checkCount(_ n: Int, _ name: String, _ why: String) throws {
        guard n >= 1 else { throw GestureTestError.invalidParameter(parameter: name, value: "\(n)", why: why) }
    }

    /// The stagger given (checked), or the variation's.
    func checkStagger(_ stagger: Duration?) throws -> Duration {
        guard let stagger else { return variation.stagger }
        guard stagger >= .zero else {
            throw GestureTestError.invalidParameter(parameter: "stagger", value: swiftDuration(stagger), why: "must not be negative")
        }
        return stagger
    }
}

/// A rectangle as the errors print it: "[0, 0, 400 × 300]".
func describe(_ r: Rect) -> String { "[\(fmt(r.minX)), \(fmt(r.minY)), \(fmt(r.width)) × \(fmt(r.height))]" }
