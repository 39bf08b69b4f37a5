/// A moment on the engine's clock, in nanoseconds. The engine never reads a clock of its
/// own: every instant arrives with an input frame, or is a deadline a recognizer asked for.
/// In a replay the clock is virtual (seconds since the trace's first event); in a live app
/// it is CLOCK_MONOTONIC.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    public init(seconds: Double) {
        self.nanoseconds = Int64((seconds * 1_000_000_000).rounded())
    }

    public init(seconds: Int64, microseconds: Int64) {
        self.nanoseconds = seconds &* 1_000_000_000 &+ microseconds &* 1_000
    }

    public static let zero = Instant(nanoseconds: 0)

    public var seconds: Double { Double(nanoseconds) / 1_000_000_000 }

    /// `self` advanced by `seconds` (which may be negative).
    @available(*, deprecated, message: "durations are Duration values: use instant + Duration(seconds: s), rounded to whole nanoseconds as this is")
    public func advanced(bySeconds seconds: Double) -> Instant {
        self + Duration(seconds: seconds)
    }

    /// Seconds from `earlier` to `self`.
    @available(*, deprecated, message: "durations are Duration values: use later - earlier (a Duration), and .inSeconds for a Double")
    public func seconds(since earlier: Instant) -> Double {
        (self - earlier).inSeconds
    }

    /// `self` advanced by `duration` (whole nanoseconds; a finer part is dropped).
    public static func + (instant: Instant, duration: Duration) -> Instant {
        Instant(nanoseconds: instant.nanoseconds &+ duration.nanosecondCount)
    }

    /// The time from `earlier` to `later`.
    public static func - (later: Instant, earlier: Instant) -> Duration {
        .nanoseconds(later.nanoseconds &- earlier.nanoseconds)
    }

    public static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }

    public var description: String { "\(seconds)s" }
}

extension Duration {
    /// `seconds` rounded to whole nanoseconds, the engine's resolution (a scene's 0.3 s is
    /// exactly 300,000,000 ns, as an `Instant` advanced by 0.3 s is).
    public init(seconds: Double) {
        self = .nanoseconds(Int64((seconds * 1_000_000_000).rounded()))
    }

    /// The duration in whole nanoseconds (a finer part is dropped).
    public var nanosecondCount: Int64 {
        // `Duration` is a frozen pair of words, the attoseconds as a 128-bit integer (low
        // word first). Up to about 9.2 s they fit the low word: a 64-bit division (the
        // common case, every deadline's arithmetic) instead of `components`' 128-bit ones.
        let (low, high) = unsafeBitCast(self, to: (UInt64, Int64).self)
        let small = Int64(bitPattern: low)
        if (high == 0 && small >= 0) || (high == -1 && small < 0) { return small / 1_000_000_000 }
        // Longer positive durations: one 128-by-64-bit division (the quotient fits 64 bits
        // while the high word is below 10^9).
        if high > 0 && high < 1_000_000_000 {
            let (quotient, _) = UInt64(1_000_000_000).dividingFullWidth((high: UInt64(high), low: low))
            return Int64(truncatingIfNeeded: quotient)
        }
        let (seconds, attoseconds) = components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }

    /// The duration in seconds, as a `Double` (for arithmetic and for people).
    public var inSeconds: Double { Double(nanosecondCount) / 1_000_000_000 }
}

/// What kind of surface a touch comes from.
public enum InputDeviceKind: String, Hashable, Sendable, CaseIterable {
    /// A touchscreen: touches land on the screen where the finger is (UIKit's `.direct`).
    case touchscreen
    /// A touchpad: contacts map onto the screen but are indirect (UIKit's `.indirect`).
    case touchpad
    /// A pointer's pressed button (a mouse's, or a touchpad's click): a touch at the pointer
    /// (UIKit's `.indirectPointer`).
    case pointer
    /// A pen (a tablet tool) on a screen or a tablet: its tip on the surface is a touch
    /// (UIKit's `.pencil`), its hovering drives the hover recognizers (`PenEvent`).
    case pen
}

/// The phase of one touch within one frame.
public enum TouchPhase: String, Hashable, Sendable, CaseIterable {
    case began
    case moved
    case ended
    case cancelled
}

/// Identifies an input device within one engine (a libinput device, a device of a recording).
public struct InputDeviceID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: InputDeviceID, b: InputDeviceID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "device \(rawValue)" }
}

/// One touch's change within a frame, as the input source reports it.
///
/// `sourceID` identifies the contact while it is down (an evdev tracking id, a libinput
/// seat slot); sources may reuse it after the contact lifts. The engine gives every touch
/// its own `TouchID` that is never reused.
public struct TouchChange: Hashable, Sendable {
    public var sourceID: Int
    public var phase: TouchPhase
    /// Where the contact is, in screen points.
    public var location: Point

    public init(sourceID: Int, phase: TouchPhase, location: Point) {
        self.sourceID = sourceID
        self.phase = phase
        self.location = location
    }
}

/// All the touch changes of one instant from one device (libinput's TOUCH_FRAME, evdev's
/// SYN_REPORT). Producers may reuse one frame's storage from frame to frame.
public struct TouchFrame: Hashable, Sendable {
    public var time: Instant
    public var device: InputDeviceID
    public var deviceKind: InputDeviceKind
    public var changes: [TouchChange]
    /// For a touchpad's contacts: how many screen points of this frame's locations a
    /// millimetre of the pad is (the geometric mean of its two axes), so that recognizers
    /// measure a touchpad's contacts in millimetres. Nil when unknown or for a touchscreen.
    public var pointsPerMillimetre: Double?
    /// For a pointer's button touch: the buttons pressed when it began.
    public var buttonMask: ButtonMask
    /// For a pen's touch: its force and angles in this frame; nil for other touches.
    public var pen: PenSample?

    public init(time: Instant, device: InputDeviceID = InputDeviceID(0),
                deviceKind: InputDeviceKind = .touchscreen, changes: [TouchChange] = [],
                pointsPerMillimetre: Double? = nil, buttonMask: ButtonMask = [], pen: PenSample? = nil) {
        self.time = time
        self.device = device
        self.deviceKind = deviceKind
        self.changes = changes
        self.pointsPerMillimetre = pointsPerMillimetre
        self.buttonMask = buttonMask
        self.pen = pen
    }
}

/// A touchpad gesture as libinput reports it (LIBINPUT_EVENT_GESTURE_*): the touchpad
/// itself has decided the fingers pinch, swipe or hold, and the engine hands it to the
/// recognizers that understand it, at the pointer's location.
public struct TouchpadGestureEvent: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case pinch, swipe, hold
        /// A continuous scroll sequence at the pointer (a touchpad's two-finger scroll):
        /// `delta` is the content's movement, in points.
        case scroll
        /// A discrete scroll sequence at the pointer (a mouse wheel's detents): `delta` is the
        /// content's movement, in points.
        case wheel

        /// Scroll or wheel: drives the pans that allow its type, not the touchpad gestures.
        public var isScroll: Bool { self == .scroll || self == .wheel }
    }

    public enum Phase: String, Hashable, Sendable, CaseIterable {
        case begin, update, end, cancel
    }

    public var kind: Kind
    public var phase: Phase
    public var time: Instant
    public var device: InputDeviceID
    public var fingers: Int
    /// Where the pointer is, in screen points.
    public var location: Point
    /// Pinch: the absolute scale since the gesture began (libinput's
    /// `libinput_event_gesture_get_scale`, 1.0 at begin).
    public var scale: Double
    /// Pinch: the angle change of this update, in degrees, clockwise positive.
    public var angleDelta: Double
    /// Swipe and pinch: the motion of the fingers' centre in this update, in points.
    public var delta: Point

    public init(kind: Kind, phase: Phase, time: Instant, device: InputDeviceID = InputDeviceID(0),
                fingers: Int, location: Point, scale: Double = 1, angleDelta: Double = 0,
                delta: Point = .zero) {
        self.kind = kind
        self.phase = phase
        self.time = time
        self.device = device
        self.fingers = fingers
        self.location = location
        self.scale = scale
        self.angleDelta = angleDelta
        self.delta = delta
    }
}

extension TouchpadGestureEvent {
    /// The event that cancels this gesture when its device or its input ends without saying so
    /// (a device removed, the pointer gone from the window, the end of input): its kind,
    /// device, fingers and last scale, at `time`, at `location` (nil: where it was), with no
    /// motion. The one rule, which the engine and every source (GestureInput's
    /// `InputEventSource` contract) follow.
    package func cancelled(at time: Instant, location: Point? = nil) -> TouchpadGestureEvent {
        var event = self
        event.phase = .cancel
        event.time = time
        if let location { event.location = location }
        event.angleDelta = 0
        event.delta = .zero
        return event
    }
}
