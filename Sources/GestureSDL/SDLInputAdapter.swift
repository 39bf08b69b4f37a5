// SDL2's C API comes with GestureSDL: an app polls SDL's events and hands them to the adapter.
@_exported import CSDL2
import GestureInput
import GestureKit

/// SDL2's input events as the engine's `InputEvent`s (touch frames and pointer events in window
/// coordinates, points = pixels, on SDL's clock: milliseconds since SDL started): the desktop path of an SDL app, whatever
/// SDL's video driver (Wayland: the compositor's wl_touch and wl_pointer; X11: XInput2's
/// touches and the core pointer; KMSDRM: evdev).
///
/// SDL synthesizes mouse events from touches and touches from the mouse; each input reaches
/// the engine once: the window sets SDL's hints off (`SDL_TOUCH_MOUSE_EVENTS`,
/// `SDL_MOUSE_TOUCH_EVENTS`), and events SDL marks as synthesized anyway (a mouse event of
/// `SDL_TOUCH_MOUSEID`, a finger of `SDL_MOUSE_TOUCHID`) are dropped. SDL reports fingers one at
/// a time: consecutive finger events of one timestamp (distinct fingers) become one frame.
///
/// SDL2 stamps an event with its own clock when the window reads it, not with the time the
/// compositor gave it (SDL2's Wayland driver drops wl_touch's `time`); events that waited while
/// the window was busy drawing come with one timestamp, and a velocity measured from them is
/// not the finger's. The adapter counts such events (`lateTouchEvents`) so that the app can say
/// so.
public struct SDLInputAdapter {
    /// The window's size in points: finger positions come normalized to [0, 1].
    public var windowSize: Size
    /// The mouse's device id (one pointer per scene); touch devices get 1, 2, ...
    public static let mouseDevice = InputDeviceID(0)
    /// SDL's id for mouse events it made from touches (`SDL_TOUCH_MOUSEID`, (Uint32)-1).
    static let touchMouseID = UInt32.max
    /// SDL's id for touch events it made from the mouse (`SDL_MOUSE_TOUCHID`, (Sint64)-1).
    static let mouseTouchID: Int64 = -1

    /// Touch events stamped with the same millisecond as the same finger's previous event: a
    /// touchscreen reports a finger at most every few milliseconds (5 ms at 200 Hz), so these
    /// waited in the window's queue and SDL stamped them all when it read them.
    public private(set) var lateTouchEvents = 0
    /// The most touch events of one finger that came with one timestamp.
    public private(set) var largestLateBatch = 0

    /// False when the app reads the window's touches elsewhere (from the compositor, with its
    /// times): SDL's finger events are then dropped.
    public var takesTouches = true
    /// Nanoseconds added to SDL's millisecond timestamps: 0 keeps SDL's clock; an app whose loop
    /// runs on another clock (CLOCK_MONOTONIC, the compositor's) puts SDL's events on it.
    public var clockOffset: Int64 = 0 /* ns */

    private var touchDevices: [Int64: InputDeviceID] = [:]
    /// Each finger's last timestamp and how many of its events came with it.
    private var lastFingerEvent: [SIMD2<Int64>: (time: UInt32, count: Int)] = [:]
    private var frames = FingerFrames()
    /// Where the pointer is (the last motion or button).
    public private(set) var pointerLocation = Point.zero

    public init(windowSize: Size) {
        self.windowSize = windowSize
    }

    /// Sets SDL's hints so that touches and the mouse each arrive once (before SDL_Init).
    public static func configureSDL() {
        SDL_SetHint("SDL_TOUCH_MOUSE_EVENTS", "0")
        SDL_SetHint("SDL_MOUSE_TOUCH_EVENTS", "0")
    }

    /// Converts one SDL event; what is complete is returned by `take()`.
    public mutating func convert(_ event: SDL_Event) {
        let type = event.type
        let time = Instant(nanoseconds: Int64(event.common.timestamp) * 1_000_000 + clockOffset)
        switch type {
        case SDL_FINGERDOWN.rawValue, SDL_FINGERMOTION.rawValue, SDL_FINGERUP.rawValue:
            let finger = event.tfinger
            guard takesTouches, finger.touchId != Self.mouseTouchID else { return }
            let device = touchDevice(finger.touchId)
            noteTiming(finger: SIMD2(finger.touchId, finger.fingerId), at: event.common.timestamp, ended: type == SDL_FINGERUP.rawValue)
            let phase: TouchPhase = type == SDL_FINGERDOWN.rawValue ? .began
                : type == SDL_FINGERUP.rawValue ? .ended : .moved
            let change = TouchChange(sourceID: Int(truncatingIfNeeded: finger.fingerId), phase: phase,
                                     location: Point(x: Double(finger.x) * windowSize.width,
                                                     y: Double(finger.y) * windowSize.height))
            frames.add(change, at: time, device: device)
        case SDL_MOUSEMOTION.rawValue:
            frames.close()
            guard event.motion.which != Self.touchMouseID else { return }
            pointerLocation = Point(x: Double(event.motion.x), y: Double(event.motion.y))
            frames.append(.pointer(.motion(to: pointerLocation, at: time, device: Self.mouseDevice)))
        case SDL_MOUSEBUTTONDOWN.rawValue, SDL_MOUSEBUTTONUP.rawValue:
            frames.close()
            let b = event.button
            guard b.which != Self.touchMouseID else { return }
            pointerLocation = Point(x: Double(b.x), y: Double(b.y))
            // SDL's buttons 1, 2, 3 are evdev's BTN_LEFT, BTN_MIDDLE, BTN_RIGHT.
            let code = [1: 0x110, 2: 0x112, 3: 0x111][Int(b.button)] ?? 0x110 + Int(b.button)
            frames.append(.pointer(.button(type == SDL_MOUSEBUTTONDOWN.rawValue, at: pointerLocation, time: time,
                                        device: Self.mouseDevice, button: code)))
        case SDL_MOUSEWHEEL.rawValue:
            frames.close()
            let w = event.wheel
            guard w.which != Self.touchMouseID else { return }
            // SDL: y > 0 turning the wheel away from the user (scrolling up), in detents; the
            // translation has the sign of dragging the content (as from libinput): up moves
            // the content down, +15 points a detent.
            let flip: Float = w.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1
            let delta = Point(x: -Double(w.preciseX * flip) * GestureDefaults.wheelPointsPerDetent,
                              y: Double(w.preciseY * flip) * GestureDefaults.wheelPointsPerDetent)
            guard delta != .zero else { return }
            frames.append(.pointer(.scroll(delta, .discrete, at: pointerLocation, time: time, device: Self.mouseDevice)))
        default:
            break
        }
    }

    /// What was converted so far (a frame still collecting fingers is closed).
    public mutating func take() -> [InputEvent] { frames.take() }

    private mutating func noteTiming(finger: SIMD2<Int64>, at time: UInt32, ended: Bool) {
        var count = 1
        if let last = lastFingerEvent[finger], last.time == time {
            count = last.count + 1
            lateTouchEvents += 1
            largestLateBatch = max(largestLateBatch, count)
        }
        lastFingerEvent[finger] = ended ? nil : (time, count)
    }

    private mutating func touchDevice(_ id: Int64) -> InputDeviceID {
        if let d = touchDevices[id] { return d }
        let d = InputDeviceID(touchDevices.count + 1)
        touchDevices[id] = d
        return d
    }
}
