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
    }

    /// The touch's location in `view`'s coordinate space (screen coordinates when `view`
    /// is nil).
    public func location(in view: View?) -> Point {
        guard let view else { return location }
        return view.convertFromScreen(location)
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
