import GestureKit
import RealModule

/// Desktop input through the engine's own input types: a mouse (motion, hover, clicks,
/// the wheel), a touchpad (two-finger scrolling, and the pinches, swipes and holds its
/// driver decides, at the pointer), a pen (strokes with force and angles, hovering, the
/// eraser) and a keyboard's modifier keys. Each device is announced to the engine the first
/// time it is used, as a real source announces it.
extension GestureTester {
    /// How long a click's button is held: 70 ms, a brisk click.
    public static let clickHold: Duration = .milliseconds(70)
    /// The time between a wheel's detents: 50 ms, a wheel turned steadily.
    public static let wheelDetentInterval: Duration = .milliseconds(50)

    // MARK: The mouse

    /// Moves the mouse pointer to `point`: in one event, or in a straight line over `duration`.
    public func movePointer(to point: Point, duration: Duration = .zero) {
        announce(.mouse)
        let start = pointerLocation ?? point
        let steps = duration == .zero || start == point ? [1.0] : fractions(over: duration)
        for f in steps {
            let p = start + (point - start) * f
            engine.send(PointerEvent.motion(to: p, at: stamp(), device: TestDevice.mouse.id))
            pointerLocation = p
        }
    }

    /// Moves the mouse pointer onto `view`'s centre (hovering it); throws if another view is
    /// on top there.
    public func hover(over view: View, duration: Duration = .zero) throws {
        movePointer(to: try aim(at: view), duration: duration)
    }

    /// The pointer leaves the window (a compositor's `wl_pointer.leave`): hovering ends.
    public func pointerLeaves() {
        guard let location = pointerLocation else { return }
        engine.send(PointerEvent.leave(at: location, time: stamp(), device: TestDevice.mouse.id))
        pointerLocation = nil
    }

    /// Clicks `button` `count` times at `point` (moving the pointer there first), holding
    /// `modifiers` throughout. Clicks follow each other at the tap pause there.
    public func click(at point: Point, button: ButtonMask = .primary, count: Int = 1, modifiers: ModifierFlags = []) {
        if pointerLocation != point { movePointer(to: point) }
        let code = GestureTester.evdevCode(of: button)
        let held = heldModifiers
        if !modifiers.isEmpty { setModifiers(held.union(modifiers)) }
        let pause = tapPause(at: point)
        for k in 0..<max(1, count) {
            let down = k == 0 ? stamp() : stamp(at: now + pause)
            engine.send(PointerEvent.button(true, at: point, time: down, device: TestDevice.mouse.id, button: code))
            engine.send(PointerEvent.button(false, at: point, time: stamp(at: down + GestureTester.clickHold),
                                            device: TestDevice.mouse.id, button: code))
        }
        if !modifiers.isEmpty { setModifiers(held) }
    }

    /// Clicks on `view`'s centre.
    public func click(on view: View, button: ButtonMask = .primary, count: Int = 1, modifiers: ModifierFlags = []) throws {
        click(at: try aim(at: view), button: button, count: count, modifiers: modifiers)
    }

    /// Presses the primary button at `point`, drags the mouse to `end` over `duration` and
    /// releases it there.
    public func mouseDrag(from point: Point, to end: Point, duration: Duration = .milliseconds(300),
                          modifiers: ModifierFlags = []) {
        if pointerLocation != point { movePointer(to: point) }
        let held = heldModifiers
        if !modifiers.isEmpty { setModifiers(held.union(modifiers)) }
        engine.send(PointerEvent.button(true, at: point, time: stamp(), device: TestDevice.mouse.id))
        movePointer(to: end, duration: duration)
        engine.send(PointerEvent.button(false, at: end, time: stamp(), device: TestDevice.mouse.id))
        if !modifiers.isEmpty { setModifiers(held) }
    }

    /// Turns the mouse wheel `detents` clicks at `point` (the pointer moves there first),
    /// `wheelDetentInterval` apart: positive turns it away from you, which moves the content
    /// down (`sideways` for a horizontal wheel: positive moves it right). Each detent scrolls
    /// `GestureDefaults.wheelPointsPerDetent`; the scroll ends when the engine's pause after
    /// the last detent passes (`settle()` or `wait(_:)`).
    public func scrollWheel(detents: Int, at point: Point, sideways: Bool = false) {
        if pointerLocation != point { movePointer(to: point) }
        let step = GestureDefaults.wheelPointsPerDetent * (detents < 0 ? -1 : 1)
        let delta = sideways ? Point(x: step, y: 0) : Point(x: 0, y: step)
        for k in 0..<abs(detents) {
            let t = k == 0 ? stamp() : stamp(at: now + GestureTester.wheelDetentInterval)
            engine.send(PointerEvent.scroll(delta, .discrete, at: point, time: t, device: TestDevice.mouse.id))
        }
    }

    /// Turns the wheel over `view`'s centre.
    public func scrollWheel(detents: Int, on view: View, sideways: Bool = false) throws {
        scrollWheel(detents: detents, at: try aim(at: view), sideways: sideways)
    }

    // MARK: The touchpad

    /// Scrolls with two fingers on the touchpad at `point` (the pointer moves there first):
    /// the content moves by `offset` points over `duration`, then the fingers lift (the
    /// touchpad's scroll stop). `release: .moving` lifts them while moving, so a scroll view
    /// flings.
    public func touchpadScroll(at point: Point, by offset: Point, duration: Duration = .milliseconds(300),
                               release: Release = .moving) {
        if pointerLocation != point { movePointer(to: point) }
        announce(.touchpad)
        let steps = fractions(over: duration)
        var done = Point.zero
        for f in steps {
            let delta = offset * f - done
            done = offset * f
            engine.send(PointerEvent.scroll(delta, .continuous, at: point, time: stamp(), device: TestDevice.touchpad.id))
        }
        if release == .stopped { wait(.nanoseconds(VelocityTracker.stopGapNanoseconds)) }
        engine.send(PointerEvent.scroll(.zero, .continuous, at: point, time: stamp(), device: TestDevice.touchpad.id, stop: true))
    }

    /// A touchpad pinch at `point` as the touchpad's driver reports it (libinput's
    /// GESTURE_PINCH): the scale goes from 1 to `scale` and the fingers turn `rotation`
    /// radians (clockwise positive) over `duration`.
    public func touchpadPinch(at point: Point, scale: Double, rotation: Double = 0, fingers: Int = 2,
                              duration: Duration = .milliseconds(500)) {
        if pointerLocation != point { movePointer(to: point) }
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

    /// A touchpad swipe of `fingers` fingers at `point`: the fingers' centre moves by
    /// `offset` points over `duration`.
    public func touchpadSwipe(at point: Point, fingers: Int = 3, by offset: Point, duration: Duration = .milliseconds(300)) {
        if pointerLocation != point { movePointer(to: point) }
        announce(.touchpad)
        sendGesture(.swipe, .begin, fingers: fingers, at: point)
        var done = Point.zero
        for f in fractions(over: duration) {
            sendGesture(.swipe, .update, fingers: fingers, at: point, delta: offset * f - done)
            done = offset * f
        }
        sendGesture(.swipe, .end, fingers: fingers, at: point)
    }

    /// Rests `fingers` fingers on the touchpad for `duration` (libinput's GESTURE_HOLD) at
    /// `point`.
    public func touchpadHold(at point: Point, fingers: Int = 2, duration: Duration = .milliseconds(300)) {
        if pointerLocation != point { movePointer(to: point) }
        announce(.touchpad)
        sendGesture(.hold, .begin, fingers: fingers, at: point)
        let start = now
        sendGesture(.hold, .end, fingers: fingers, at: point, time: start + duration)
    }

    private func sendGesture(_ kind: TouchpadGestureEvent.Kind, _ phase: TouchpadGestureEvent.Phase, fingers: Int, at point: Point,
                             scale: Double = 1, angleDelta: Double = 0, delta: Point = .zero, time: Instant? = nil) {
        engine.send(TouchpadGestureEvent(kind: kind, phase: phase, time: time.map { stamp(at: $0) } ?? stamp(),
                                         device: TestDevice.touchpad.id, fingers: fingers, location: point,
                                         scale: scale, angleDelta: angleDelta, delta: delta))
    }

    // MARK: The pen

    /// A pen stroke along `path` over `duration`: the pen comes into proximity above the
    /// first point, touches down, moves at constant speed, lifts and leaves proximity.
    /// `force` is 0 to 1; `altitude` (radians, π/2 upright) and `azimuth` (radians on the
    /// screen, 0 along +x) as UIKit's; `tool: .eraser` for the eraser end.
    public func penStroke(along path: [Point], force: Double = 0.5, altitude: Double = .pi / 3, azimuth: Double = 0,
                          tool: PenTool = .pen, duration: Duration = .milliseconds(300)) {
        guard let first = path.first else { return }
        announce(.pen)
        let touching = PenSample(force: force, altitudeAngle: altitude, azimuthAngle: azimuth, tool: tool)
        let above = PenSample(force: 0, altitudeAngle: altitude, azimuthAngle: azimuth, zOffset: 0.5, tool: tool)
        sendPen(.hover, at: first, above)
        sendPen(.down, at: first, touching)
        let last = sendPen(.moved, along: path, over: duration, touching)
        sendPen(.up, at: last, touching)
        sendPen(.out, at: last, above)
    }

    /// The pen hovers along `path` over `duration` without touching, then leaves proximity.
    public func penHover(along path: [Point], altitude: Double = .pi / 3, azimuth: Double = 0, zOffset: Double = 0.5,
                         tool: PenTool = .pen, duration: Duration = .milliseconds(300)) {
        guard let first = path.first else { return }
        announce(.pen)
        let above = PenSample(force: 0, altitudeAngle: altitude, azimuthAngle: azimuth, zOffset: zOffset, tool: tool)
        sendPen(.hover, at: first, above)
        let last = sendPen(.hover, along: path, over: duration, above)
        sendPen(.out, at: last, above)
    }

    private func sendPen(_ phase: PenEvent.Phase, at point: Point, _ sample: PenSample) {
        engine.send(PenEvent(phase: phase, time: stamp(), device: TestDevice.pen.id, location: point, sample: sample))
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
        engine.send(.modifiers(time: stamp(), device: TestDevice.keyboard.id, modifiers))
    }

    static func evdevCode(of button: ButtonMask) -> Int {
        if button.contains(.secondary) { return 0x111 }
        if button.contains(.tertiary) { return 0x112 }
        return PointerEvent.primaryButton
    }
}
