/// The engine's identity for one touch, from touch-down to lift. Never reused within an
/// engine: ids grow by one for every new touch, so "touches that began before a reset"
/// are simply the ones with a smaller id.
public struct TouchID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: TouchID, b: TouchID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// One touch as recognizers and views see it. Locations are in screen (window) points;
/// `location(in:)` converts to a view's coordinates.
///
/// **A touch keeps its identity** from touch-down to lift, as UIKit's `UITouch` object
/// does: two `Touch` values are equal, and hash alike, when they are the same touch (the
/// same `id`), whatever their phase or location. A touch saved at `touchesBegan` equals the
/// same touch in `touchesMoved` (`newTouch == trackedTouch`), and a `Set<Touch>` holds each
/// touch once, as a `Set<UITouch>` does. A saved value is a snapshot, though: its location
/// is where the touch was when it was saved (read the newest from the touches of the
/// latest call, or from `GestureRecognizer.location(ofTouch:in:)`).
public struct Touch: Hashable, Sendable {
    public let id: TouchID
    /// The id the input source gave the contact (evdev tracking id, libinput slot).
    public let sourceID: Int
    public let device: InputDeviceID
    public let deviceKind: InputDeviceKind
    public internal(set) var phase: TouchPhase
    public internal(set) var location: Point
    public internal(set) var previousLocation: Point
    /// Where the touch went down.
    public let initialLocation: Point
    /// When the touch went down.
    public let beganAt: Instant
    /// When the touch last changed.
    public internal(set) var timestamp: Instant
    /// For a touchpad's contact: screen points per millimetre of the pad (its frame's
    /// `pointsPerMillimetre`); nil otherwise.
    public let pointsPerMillimetre: Double?
    /// For a pointer's touch (`indirectPointer`): the buttons pressed, as UIKit's
    /// `buttonMask`; empty for other touches.
    public internal(set) var buttonMask: ButtonMask

    init(id: TouchID, change: TouchChange, frame: TouchFrame) {
        self.id = id
        self.sourceID = change.sourceID
        self.device = frame.device
        self.deviceKind = frame.deviceKind
        self.phase = .began
        self.location = change.location
        self.previousLocation = change.location
        self.initialLocation = change.location
        self.beganAt = frame.time
        self.timestamp = frame.time
        self.pointsPerMillimetre = frame.pointsPerMillimetre
        self.buttonMask = frame.buttonMask
    }

    /// The same touch: equal ids (see the type's comment).
    public static func == (a: Touch, b: Touch) -> Bool { a.id == b.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The touch's location in `view`'s coordinate space (screen coordinates when `view`
    /// is nil).
    public func location(in view: View?) -> Point {
        guard let view else { return location }
        return view.convertFromScreen(location)
    }

    /// UIKit's `previousLocation(in:)`: where the touch was before its latest move, in
    /// `view`'s coordinates (screen coordinates when `view` is nil).
    public func previousLocation(in view: View?) -> Point {
        guard let view else { return previousLocation }
        return view.convertFromScreen(previousLocation)
    }
}

extension Sequence where Element == Touch {
    /// The centroid of the touches' locations, in screen points (`.zero` for none).
    public var centroid: Point {
        var sum = Point.zero
        var n = 0.0
        for t in self {
            sum = sum + t.location
            n += 1
        }
        return n > 0 ? sum / n : .zero
    }
}

/// What UIKit's `UIEvent` is to a recognizer's `touchesBegan(_:with:)` and its siblings: the
/// moment of the event and the touches the engine holds then.
public struct TouchEvent: Sendable {
    /// When the event happened (the input's time; never a clock read).
    public let timestamp: Instant
    /// Every touch down now, and those that lifted in this event, on every view (UIKit's
    /// `allTouches`).
    public let allTouches: Set<Touch>

    public init(timestamp: Instant, allTouches: Set<Touch>) {
        self.timestamp = timestamp
        self.allTouches = allTouches
    }
}
