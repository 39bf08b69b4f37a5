@_exported import CSDL3
import GestureInput
import GestureKit

/// SDL3's input events as the engine's `InputEvent`s: touches, the mouse, the wheel and pens,
/// in window points, on SDL3's clock. Its rules, stated once:
/// - Times: SDL3 stamps an event in nanoseconds when it happened (`SDL_GetTicksNS`'s clock;
///   under Wayland from the compositor's own event time), not when the app read it as SDL2
///   did, so touch velocities are the finger's. `clockOffset` moves them onto another clock.
/// - Each input once: the hints that make mouse events of touches and pens and touches of the
///   mouse and pens are turned off (`configureSDL()`, before `SDL_Init`), and what SDL still
///   marks as made up (the mouse ids `SDL_TOUCH_MOUSEID` and `SDL_PEN_MOUSEID`, the touch ids
///   `SDL_MOUSE_TOUCHID` and `SDL_PEN_TOUCHID`) is dropped.
/// - Fingers come one at a time: consecutive ones of one timestamp make one frame
///   (`FingerFrames`); locations are SDL's normalized ones times `windowSize`.
/// - Buttons are evdev codes (SDL's 1, 2, 3: left, middle, right); the wheel moves 15 points a
///   detent with the sign of dragging the content, as a wheel through libinput does.
/// - A pen (SDL3's pen events) is `PenEvent`s: proximity in starts nothing, motion hovers or
///   moves the tip's touch, the tip goes down and up, proximity out is `out`. Its axes
///   (pressure 0 to 1, tilt in degrees, distance 0 to 1) arrive as events of their own and
///   are kept per pen; a pressure change while the tip is down moves the touch. Force is
///   the pressure with the tip down, 0 hovering; zOffset the distance hovering, 0 pressing;
///   the eraser end is the eraser. Each pen is a device, announced at its first event.
public struct SDL3InputAdapter {
    /// The window's size in points: finger positions come normalized to [0, 1].
    public var windowSize: Size
    /// Nanoseconds added to SDL's timestamps (0 keeps SDL's clock).
    public var clockOffset: Int64 = 0
    /// The mouse's device id; touch devices and pens get 1, 2, ...
    public static let mouseDevice = InputDeviceID(0)

    // SDL3's ids of made-up events (macros with casts, which Swift does not import).
    static let touchMouseID = UInt32.max          // SDL_TOUCH_MOUSEID, (SDL_MouseID)-1
    static let penMouseID = UInt32.max - 1        // SDL_PEN_MOUSEID, (SDL_MouseID)-2
    static let mouseTouchID = UInt64.max          // SDL_MOUSE_TOUCHID, (SDL_TouchID)-1
    static let penTouchID = UInt64.max - 1        // SDL_PEN_TOUCHID, (SDL_TouchID)-2

    /// A pen's axes as SDL last said them.
    struct PenAxes {
        var device: InputDeviceID
        var pressure = 0.0
        var tilt = (x: 0.0, y: 0.0)
        var distance: Double?
        var down = false
        var eraser = false
        var location = Point.zero
    }

    private var devices: [UInt64: InputDeviceID] = [:]
    private var pens: [UInt32: PenAxes] = [:]
    private var nextDevice = 1
    private var frames = FingerFrames()
    /// Where the mouse is (its last motion or button).
    public private(set) var pointerLocation = Point.zero

    public init(windowSize: Size) {
        self.windowSize = windowSize
    }

    /// Sets SDL3's hints so that touches, the mouse and pens each arrive once (before
    /// `SDL_Init`).
    public static func configureSDL() {
        for hint in ["SDL_TOUCH_MOUSE_EVENTS", "SDL_MOUSE_TOUCH_EVENTS", "SDL_PEN_MOUSE_EVENTS", "SDL_PEN_TOUCH_EVENTS"] {
            SDL_SetHint(hint, "0")
        }
    }

    /// Converts one SDL event; what is complete is returned by `take()`.
    public mutating func convert(_ event: SDL_Event) {
        let type = event.type
        let time = Instant(nanoseconds: Int64(bitPattern: event.common.timestamp) &+ clockOffset)
        switch type {
        case SDL_EVENT_FINGER_DOWN.rawValue, SDL_EVENT_FINGER_MOTION.rawValue, SDL_EVENT_FINGER_UP.rawValue,
             SDL_EVENT_FINGER_CANCELED.rawValue:
            let finger = event.tfinger
            guard finger.touchID != Self.mouseTouchID, finger.touchID != Self.penTouchID else { return }
            let device = device(touch: finger.touchID)
            let phase: TouchPhase = switch type {
            case SDL_EVENT_FINGER_DOWN.rawValue: .began
            case SDL_EVENT_FINGER_UP.rawValue: .ended
            case SDL_EVENT_FINGER_CANCELED.rawValue: .cancelled
            default: .moved
            }
            let change = TouchChange(sourceID: Int(truncatingIfNeeded: finger.fingerID), phase: phase,
                                     location: Point(x: Double(finger.x) * windowSize.width,
                                                     y: Double(finger.y) * windowSize.height))
            frames.add(change, at: time, device: device)
        case SDL_EVENT_MOUSE_MOTION.rawValue:
            frames.close()
            guard !Self.isMadeUp(mouse: event.motion.which) else { return }
            pointerLocation = Point(x: Double(event.motion.x), y: Double(event.motion.y))
            frames.append(.pointer(.motion(to: pointerLocation, at: time, device: Self.mouseDevice)))
        case SDL_EVENT_MOUSE_BUTTON_DOWN.rawValue, SDL_EVENT_MOUSE_BUTTON_UP.rawValue:
            frames.close()
            let b = event.button
            guard !Self.isMadeUp(mouse: b.which) else { return }
            pointerLocation = Point(x: Double(b.x), y: Double(b.y))
            let code = [1: 0x110, 2: 0x112, 3: 0x111][Int(b.button)] ?? 0x110 + Int(b.button)
            frames.append(.pointer(.button(b.down, at: pointerLocation, time: time, device: Self.mouseDevice, button: code)))
        case SDL_EVENT_MOUSE_WHEEL.rawValue:
            frames.close()
            let w = event.wheel
            guard !Self.isMadeUp(mouse: w.which) else { return }
            let flip: Float = w.direction == SDL_MOUSEWHEEL_FLIPPED ? -1 : 1
            let delta = Point(x: -Double(w.x * flip) * GestureDefaults.wheelPointsPerDetent,
                              y: Double(w.y * flip) * GestureDefaults.wheelPointsPerDetent)
            guard delta != .zero else { return }
            frames.append(.pointer(.scroll(delta, .discrete, at: pointerLocation, time: time, device: Self.mouseDevice)))
        case SDL_EVENT_PEN_PROXIMITY_IN.rawValue:
            frames.close()
            _ = pen(event.pproximity.which)
        case SDL_EVENT_PEN_PROXIMITY_OUT.rawValue:
            frames.close()
            var p = pen(event.pproximity.which)
            p.down = false
            pens[event.pproximity.which] = p
            emit(.out, p, time)
        case SDL_EVENT_PEN_MOTION.rawValue:
            frames.close()
            var p = pen(event.pmotion.which)
            p.location = Point(x: Double(event.pmotion.x), y: Double(event.pmotion.y))
            pens[event.pmotion.which] = p
            emit(p.down ? .moved : .hover, p, time)
        case SDL_EVENT_PEN_DOWN.rawValue, SDL_EVENT_PEN_UP.rawValue:
            frames.close()
            let t = event.ptouch
            var p = pen(t.which)
            p.location = Point(x: Double(t.x), y: Double(t.y))
            p.down = t.down
            p.eraser = t.eraser
            pens[t.which] = p
            emit(t.down ? .down : .up, p, time)
        case SDL_EVENT_PEN_AXIS.rawValue:
            frames.close()
            let a = event.paxis
            var p = pen(a.which)
            let value = Double(a.value)
            switch a.axis {
            case SDL_PEN_AXIS_PRESSURE: p.pressure = value
            case SDL_PEN_AXIS_XTILT: p.tilt.x = value
            case SDL_PEN_AXIS_YTILT: p.tilt.y = value
            case SDL_PEN_AXIS_DISTANCE: p.distance = value
            default: break
            }
            pens[a.which] = p
            if a.axis == SDL_PEN_AXIS_PRESSURE && p.down { emit(.moved, p, time) }
        default:
            break
        }
    }

    /// What was converted so far (a frame still collecting fingers is closed).
    public mutating func take() -> [InputEvent] { frames.take() }

    static func isMadeUp(mouse which: UInt32) -> Bool { which == touchMouseID || which == penMouseID }

    private mutating func emit(_ phase: PenEvent.Phase, _ p: PenAxes, _ time: Instant) {
        let angles = PenSample.angles(tiltX: p.tilt.x, tiltY: p.tilt.y)
        let contact = p.down && phase != .up && phase != .out
        let sample = PenSample(force: contact ? p.pressure : 0, altitudeAngle: angles.altitude, azimuthAngle: angles.azimuth,
                               zOffset: p.distance.map { contact ? 0 : $0 }, tool: p.eraser ? .eraser : .pen)
        frames.append(.pen(PenEvent(phase: phase, time: time, device: p.device, location: p.location, sample: sample)))
    }

    private mutating func pen(_ id: UInt32) -> PenAxes {
        if let p = pens[id] { return p }
        let device = InputDeviceID(nextDevice)
        nextDevice += 1
        frames.append(.deviceAdded(InputDeviceInfo(id: device, name: "SDL pen \(id)", systemName: "sdl3", kind: .pen,
                                                capabilities: [.tabletTool], sizeMillimetres: nil)))
        let p = PenAxes(device: device)
        pens[id] = p
        return p
    }

    private mutating func device(touch id: UInt64) -> InputDeviceID {
        if let d = devices[id] { return d }
        let d = InputDeviceID(nextDevice)
        nextDevice += 1
        devices[id] = d
        return d
    }
}
