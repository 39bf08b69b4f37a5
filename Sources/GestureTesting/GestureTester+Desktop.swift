import GestureKit
import RealModule

/// Desktop input through the engine's own input types: a mouse (motion, hover, clicks,
/// the wheel), a touchpad (two-finger scrolling, and the pinches, swipes and holds its
/// driver decides, at the pointer), a pen (strokes with force and angles, hovering, the
/// eraser) and a keyboard's modifier keys. Each device is announced to the engine the first
/// time it is used, as a real source announces it.
extension GestureTester {
    /// Which way content scrolls, named as a person says it: `.down` shows what is further
    /// down (a list's `contentOffset.y` grows), as a mouse wheel turned towards you does, or
    /// two fingers pushed up a touchpad with natural scrolling; `.right` shows what is
    /// further right.
    public enum ScrollDirection: String, Hashable, Sendable, CaseIterable {
        case up, down, left, right

        /// The content's movement on the screen for `distance` points of scrolling this way
        /// (the engine's scroll delta: content scrolled down moves up).
        func contentMovement(_ distance: Double) -> Point {
            switch self {
            case .down: Point(x: 0, y: -distance)
            case .up: Point(x: 0, y: distance)
            case .right: Point(x: -distance, y: 0)
            case .left: Point(x: distance, y: 0)
            }
        }
    }

    /// How long a click's button is held: 70 ms, a brisk click.
    public static let clickHold: Duration = .milliseconds(70)
    /// The time between a wheel's detents: 50 ms, a wheel turned steadily.
    public static let wheelDetentInterval: Duration = .milliseconds(50)

    // MARK: The mouse

    /// Moves the mouse pointer to `point`: in one event, or in a straight line over `duration`.
    public func movePointer(to point: Point, duration: Duration = .zero) throws {
        try checkPoint(point, "to")
        guard duration >= .zero else {
            throw GestureTestError.invalidParameter(parameter: "duration", value: swiftDuration(duration), why: "must not be negative")
        }
        pointerMove(to: point, duration: duration)
    }

    func pointerMove(to point: Point, duration: Duration = .zero) {
        announce(.mouse)
        let start = pointerLocation ?? point
        let steps = duration == .zero || start == point ? [1.0] : fractions(over: duration)
        for f in steps {
            let p = start + (point - start) * f
            post(.pointer(PointerEvent.motion(to: p, at: stamp(), device: TestDevice.mouse.id)))
            pointerLocation = p
        }
    }

    /// Moves the mouse pointer onto `view`'s centre (or `point`, in its own coordinates),
    /// hovering it; throws if another view is on top there.
    public func hover(over view: View, at spot: Point? = nil, duration: Duration = .zero) throws {
        try movePointer(to: try aim(at: view, point: spot), duration: duration)
    }

    /// The pointer leaves the window (a compositor's `wl_pointer.leave`): hovering ends.
    public func pointerLeaves() {
        guard let location = pointerLocation else { return }
        post(.pointer(PointerEvent.leave(at: location, time: stamp(), device: TestDevice.mouse.id)))
        pointerLocation = nil
    }

    /// Clicks `button` `count` times at `point` (moving the pointer there first), holding
    /// `modifiers` throughout. Clicks follow each other at the tap pause there.
    public func click(at point: Point, button: ButtonMask = .primary, count: Int = 1, modifiers: ModifierFlags = []) throws {
        try checkPoint(point, "at")
        try checkCount(count, "count", "must be 1 or more clicks")
        if pointerLocation != point { pointerMove(to: point) }
        let code = GestureTester.evdevCode(of: button)
        let held = heldModifiers
        if !modifiers.isEmpty { setModifiers(held.union(modifiers)) }
        let pause = tapPause(at: point)
        for k in 0..<count {
            let down = k == 0 ? stamp() : stamp(at: now + pause)
            post(.pointer(PointerEvent.button(true, at: point, time: down, device: TestDevice.mouse.id, button: code)))
            post(.pointer(PointerEvent.button(false, at: point, time: stamp(at: down + GestureTester.clickHold),
                                            device: TestDevice.mouse.id, button: code)))
        }
        if !modifiers.isEmpty { setModifiers(held) }
    }

    /// Clicks on `view`'s centre (or `point`, in its own coordinates).
    public func click(on view: View, at spot: Point? = nil, button: ButtonMask = .primary, count: Int = 1,
                      modifiers: ModifierFlags = []) throws {
        try click(at: try aim(at: view, point: spot), button: button, count: count, modifiers: modifiers)
    }

    /// Presses the primary button at `point`, drags the mouse to `end` over `duration` and
    /// releases it there.
    public func mouseDrag(from point: Point, to end: Point, duration: Duration = .milliseconds(300),
                          modifiers: ModifierFlags = []) throws {
        try checkPoint(point, "from")
        try checkPoint(end, "to")
        try checkDuration(duration, "duration")
        if pointerLocation != point { pointerMove(to: point) }
        let held = heldModifiers
        if !modifiers.isEmpty { setModifiers(held.union(modifiers)) }
        post(.pointer(PointerEvent.button(true, at: point, time: stamp(), device: TestDevice.mouse.id)))
        pointerMove(to: end, duration: duration)
        post(.pointer(PointerEvent.button(false, at: end, time: stamp(), device: TestDevice.mouse.id)))
        if !modifiers.isEmpty { setModifiers(held) }
    }

    /// Turns the mouse wheel `detents` clicks at `point` (the pointer moves there first),
    /// `wheelDetentInterval` apart, scrolling the content `direction`: `.down` shows what is
    /// further down, as a wheel turned towards you does (`.left` and `.right` a horizontal
    /// wheel). Each detent scrolls `GestureDefaults.wheelPointsPerDetent`; the scroll ends
    /// when the engine's pause after the last detent passes (`settle()` or `wait(_:)`).
    public func scrollWheel(_ direction: ScrollDirection, detents: Int = 1, at point: Point) throws {
        try checkPoint(point, "at")
        try checkCount(detents, "detents", "must be 1 or more (the direction says which way)")
        turnWheel(direction.contentMovement(GestureDefaults.wheelPointsPerDetent), detents: detents, at: point)
    }

    /// Turns the wheel `direction` over `view`'s centre (or `point`, in its own coordinates);
    /// throws if another view is on top there.
    public func scrollWheel(_ direction: ScrollDirection, detents: Int = 1, on view: View, at spot: Point? = nil) throws {
        try scrollWheel(direction, detents: detents, at: try aim(at: view, point: spot))
    }

    /// Turns the wheel by signed detents: positive turned it away from you, scrolling up.
    @available(*, deprecated, message: "a positive count scrolled up, the reverse of what most read: name the way, scrollWheel(.down, detents: 3, at:)")
    public func scrollWheel(detents: Int, at point: Point, sideways: Bool = false) {
        let step = GestureDefaults.wheelPointsPerDetent * (detents < 0 ? -1 : 1)
        turnWheel(sideways ? Point(x: step, y: 0) : Point(x: 0, y: step), detents: abs(detents), at: point)
    }

    /// Turns the wheel by signed detents over `view`: positive scrolled up.
    @available(*, deprecated, message: "a positive count scrolled up, the reverse of what most read: name the way, scrollWheel(.down, detents: 3, on:)")
    public func scrollWheel(detents: Int, on view: View, sideways: Bool = false) throws {
        let step = GestureDefaults.wheelPointsPerDetent * (detents < 0 ? -1 : 1)
        turnWheel(sideways ? Point(x: step, y: 0) : Point(x: 0, y: step), detents: abs(detents), at: try aim(at: view))
    }

    private func turnWheel(_ delta: Point, detents: Int, at point: Point) {
        if pointerLocation != point { pointerMove(to: point) }
        for k in 0..<detents {
            let t = k == 0 ? stamp() : stamp(at: now + GestureTester.wheelDetentInterval)
            post(.pointer(PointerEvent.scroll(delta, .discrete, at: point, time: t, device: TestDevice.mouse.id)))
        }
    }

    // MARK: The touchpad

    /// Scrolls with two fingers on the touchpad at `point` (the pointer moves there first):
    /// the content moves by `offset` points over `duration`, then the fingers lift (the
    /// touchpad's scroll stop). `release: .moving` lifts them while moving, so a scroll view
    /// flings.
    public func touchpadScroll(at point: Point, by offset: Point, duration: Duration = .milliseconds(300),
                               release: Release = .moving) throws {
        try checkPoint(point, "at")
        try checkPoint(offset, "by")
        try checkDuration(duration, "duration")
        if pointerLocation != point { pointerMove(to: point) }
        announce(.touchpad)
        let steps = fractions(over: duration)
        var done = Point.zero
        for f in steps {
            let delta = offset * f - done
            done = offset * f
            post(.pointer(PointerEvent.scroll(delta, .continuous, at: point, time: stamp(), device: TestDevice.touchpad.id)))
        }
        if release == .stopped { wait(until: now + .nanoseconds(VelocityTracker.stopGapNanoseconds)) }
        post(.pointer(PointerEvent.scroll(.zero, .continuous, at: point, time: stamp(), device: TestDevice.touchpad.id, stop: true)))
    }

    /// Scrolls `view`'s content `direction` by `distance` points with two fingers on the
    /// touchpad, the pointer over the view's centre (or `point`, in its own coordinates);
    /// throws if another view is on top there.
    public func touchpadScroll(_ direction: ScrollDirection, by distance: Double, on view: View, at spot: Point? = nil,
                               duration: Duration = .milliseconds(300), release: Release = .moving) throws {
        guard distance.isFinite, distance > 0 else {
            throw GestureTestError.invalidParameter(parameter: "by", value: fmt(distance), why: "must be a positive number of points (the direction says which way)")
        }
        try touchpadScroll(at: try aim(at: view, point: spot), by: direction.contentMovement(distance), duration: duration, release: release)
    }

    /// A touchpad pinch at `point` as the touchpad's driver reports it (libinput's
    /// GESTURE_PINCH): the scale goes from 1 to `scale` and the fingers turn `rotation`
    /// radians (clockwise positive) over `duration`.
    public func touchpadPinch(at point: Point, scale: Double, rotation: Double = 0, fingers: Int = 2,
                              duration: Duration = .milliseconds(500)) throws {
        try checkPoint(point, "at")
        try checkPinch(scale: scale, rotation: rotation, angle: 0, duration: duration)
        try checkTouchpadFingers(fingers, least: 2)
        if pointerLocation != point { pointerMove(to: point) }
        announce(.touchpad)
        sendGesture(.pinch, .begin, fingers: fingers, at: point)
        var turned = 0.0
        for f in fractions(over: duration) {
            let degrees = rotation * f * 180 / .pi
            sendGesture(.pinch, .update, fingers: fingers, at: point, scale: 1 + (scale - 1) * f, angleDelta: degrees - turned)
            turned = degrees
        }
        sendGesture(.pinch, .end, fingers: fingers, at: point, scale: scale)
    }

    /// A touchpad pinch with the pointer over `view`'s centre (or `point`, in its own
    /// coordinates); throws if another view is on top there.
    public func touchpadPinch(on view: View, at spot: Point? = nil, scale: Double, rotation: Double = 0, fingers: Int = 2,
                              duration: Duration = .milliseconds(500)) throws {
        try touchpadPinch(at: try aim(at: view, point: spot), scale: scale, rotation: rotation, fingers: fingers, duration: duration)
    }

    /// A touchpad swipe of `fingers` fingers at `point`: the fingers' centre moves by
    /// `offset` points over `duration`.
    public func touchpadSwipe(at point: Point, fingers: Int = 3, by offset: Point, duration: Duration = .milliseconds(300)) throws {
        try checkPoint(point, "at")
        try checkPoint(offset, "by")
        try checkDuration(duration, "duration")
        try checkTouchpadFingers(fingers, least: 3)
        if pointerLocation != point { pointerMove(to: point) }
        announce(.touchpad)
        sendGesture(.swipe, .begin, fingers: fingers, at: point)
        var done = Point.zero
        for f in fractions(over: duration) {
            sendGesture(.swipe, .update, fingers: fingers, at: point, delta: offset * f - done)
            done = offset * f
        }
        sendGesture(.swipe, .end, fingers: fingers, at: point)
    }

    /// A touchpad swipe with the pointer over `view`'s centre (or `point`, in its own
    /// coordinates); throws if another view is on top there.
    public func touchpadSwipe(on view: View, at spot: Point? = nil, fingers: Int = 3, by offset: Point,
                              duration: Duration = .milliseconds(300)) throws {
        try touchpadSwipe(at: try aim(at: view, point: spot), fingers: fingers, by: offset, duration: duration)
    }

    /// Rests `fingers` fingers on the touchpad for `duration` (libinput's GESTURE_HOLD) at
    /// `point`.
    public func touchpadHold(at point: Point, fingers: Int = 2, duration: Duration = .milliseconds(300)) throws {
        try checkPoint(point, "at")
        try checkDuration(duration, "duration")
        try checkTouchpadFingers(fingers, least: 1)
        if pointerLocation != point { pointerMove(to: point) }
        announce(.touchpad)
        sendGesture(.hold, .begin, fingers: fingers, at: point)
        let start = now
        sendGesture(.hold, .end, fingers: fingers, at: point, time: start + duration)
    }

    /// A touchpad hold with the pointer over `view`'s centre (or `point`, in its own
    /// coordinates); throws if another view is on top there.
    public func touchpadHold(on view: View, at spot: Point? = nil, fingers: Int = 2, duration: Duration = .milliseconds(300)) throws {
        try touchpadHold(at: try aim(at: view, point: spot), fingers: fingers, duration: duration)
    }

    /// A touchpad reports 1 to 5 fingers (libinput's gestures: a pinch of 2 or more, a swipe
    /// of 3 or more).
    private func checkTouchpadFingers(_ fingers: Int, least: Int) throws {
        guard fingers >= least, fingers <= 5 else {
            throw GestureTestError.invalidParameter(parameter: "fingers", value: "\(fingers)", why: "must be \(least) to 5 on a touchpad")
        }
    }

    private func sendGesture(_ kind: TouchpadGestureEvent.Kind, _ phase: TouchpadGestureEvent.Phase, fingers: Int, at point: Point,
                             scale: Double = 1, angleDelta: Double = 0, delta: Point = .zero, time: Instant? = nil) {
        post(.touchpadGesture(TouchpadGestureEvent(kind: kind, phase: phase, time: time.map { stamp(at: $0) } ?? stamp(),
                                         device: TestDevice.touchpad.id, fingers: fingers, location: point,
                                         scale: scale, angleDelta: angleDelta, delta: delta)))
    }

    // MARK: The pen

    /// A pen stroke along `path` over `duration`: the pen comes into proximity above the
    /// first point, touches down, moves at constant speed, lifts and leaves proximity.
    /// `force` is 0 to 1; `altitude` (radians, π/2 upright) and `azimuth` (radians on the
    /// screen, 0 along +x) as UIKit's; `tool: .eraser` for the eraser end.
    public func penStroke(along path: [Point], force: Double = 0.5, altitude: Double = .pi / 3, azimuth: Double = 0,
                          tool: PenTool = .pen, duration: Duration = .milliseconds(300)) throws {
        let first = try checkPath(path)
        try checkPen(altitude: altitude, azimuth: azimuth, duration: duration)
        guard force.isFinite, force >= 0, force <= 1 else {
            throw GestureTestError.invalidParameter(parameter: "force", value: fmt(force), why: "must be 0 to 1")
        }
        announce(.pen)
        let touching = PenSample(force: force, altitudeAngle: altitude, azimuthAngle: azimuth, tool: tool)
        let above = PenSample(force: 0, altitudeAngle: altitude, azimuthAngle: azimuth, zOffset: 0.5, tool: tool)
        sendPen(.hover, at: first, above)
        sendPen(.down, at: first, touching)
        let last = sendPen(.moved, along: path, over: duration, touching)
        sendPen(.up, at: last, touching)
        sendPen(.out, at: last, above)
    }

    /// A pen stroke along `path` in `view`'s own coordinates (by default across its middle,
    /// from a quarter to three quarters of its width); throws if another view would get the
    /// pen where it touches down.
    public func penStroke(on view: View, along path: [Point]? = nil, force: Double = 0.5, altitude: Double = .pi / 3,
                          azimuth: Double = 0, tool: PenTool = .pen, duration: Duration = .milliseconds(300)) throws {
        let b = view.bounds
        let local = path ?? [Point(x: b.minX + b.width / 4, y: b.midY), Point(x: b.minX + b.width * 3 / 4, y: b.midY)]
        let first = try checkPath(local)
        let start = try aim(at: view, point: first)
        try penStroke(along: [start] + local.dropFirst().map(view.convertToScreen), force: force, altitude: altitude,
                      azimuth: azimuth, tool: tool, duration: duration)
    }

    /// The pen hovers along `path` over `duration` without touching, then leaves proximity.
    public func penHover(along path: [Point], altitude: Double = .pi / 3, azimuth: Double = 0, zOffset: Double = 0.5,
                         tool: PenTool = .pen, duration: Duration = .milliseconds(300)) throws {
        let first = try checkPath(path)
        try checkPen(altitude: altitude, azimuth: azimuth, duration: duration)
        guard zOffset.isFinite, zOffset >= 0, zOffset <= 1 else {
            throw GestureTestError.invalidParameter(parameter: "zOffset", value: fmt(zOffset), why: "must be 0 to 1")
        }
        announce(.pen)
        let above = PenSample(force: 0, altitudeAngle: altitude, azimuthAngle: azimuth, zOffset: zOffset, tool: tool)
        sendPen(.hover, at: first, above)
        let last = sendPen(.hover, along: path, over: duration, above)
        sendPen(.out, at: last, above)
    }

    private func checkPath(_ path: [Point]) throws -> Point {
        guard let first = path.first else {
            throw GestureTestError.invalidParameter(parameter: "path", value: "[]", why: "must have a point to start at")
        }
        for (i, p) in path.enumerated() { try checkPoint(p, "path[\(i)]") }
        return first
    }

    private func checkPen(altitude: Double, azimuth: Double, duration: Duration) throws {
        guard altitude.isFinite, altitude >= 0, altitude <= .pi / 2 else {
            throw GestureTestError.invalidParameter(parameter: "altitude", value: fmt(altitude), why: "must be 0 to π/2 radians (π/2: upright)")
        }
        guard azimuth.isFinite else {
            throw GestureTestError.invalidParameter(parameter: "azimuth", value: fmt(azimuth), why: "must be a finite number of radians")
        }
        try checkDuration(duration, "duration")
    }

    private func sendPen(_ phase: PenEvent.Phase, at point: Point, _ sample: PenSample) {
        post(.pen(PenEvent(phase: phase, time: stamp(), device: TestDevice.pen.id, location: point, sample: sample)))
    }

    /// The pen moving along `path` over `duration`, one `phase` event a sample (the first
    /// point left out: the pen is there already); returns where it ends.
    private func sendPen(_ phase: PenEvent.Phase, along path: [Point], over duration: Duration, _ sample: PenSample) -> Point {
        var last = path[0]
        for p in points(along: path, over: duration) {
            sendPen(phase, at: p, sample)
            last = p
        }
        return last
    }

    /// Points along the polyline `path` at constant speed, one per sample over `duration`
    /// (the first point excluded).
    func points(along path: [Point], over duration: Duration) -> [Point] {
        guard path.count > 1 else { return [] }
        let line = Polyline(path)
        return fractions(over: duration).map { line.point(at: $0) }
    }

    // MARK: The keyboard

    /// Holds `modifiers` on the tester's keyboard from now on (an empty set releases them):
    /// recognizers read them as `modifierFlags`. Key codes and text are not input: only the
    /// modifiers reach recognizers.
    public func setModifiers(_ modifiers: ModifierFlags) {
        announce(.keyboard)
        heldModifiers = modifiers
        post(.modifiers(time: stamp(), device: TestDevice.keyboard.id, modifiers))
    }

    static func evdevCode(of button: ButtonMask) -> Int {
        if button.contains(.secondary) { return 0x111 }
        if button.contains(.tertiary) { return 0x112 }
        return PointerEvent.primaryButton
    }
}
