import Foundation

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
    /// When the touch went down, by its source's clock (a frame that arrived late keeps its
    /// own time here, though the engine handled it at its later `now`).
    public let beganAt: Instant
    /// When the touch last changed, by its source's clock; never earlier than the touch's
    /// previous timestamp.
    public internal(set) var timestamp: Instant
    /// For a touchpad's contact: screen points per millimetre of the pad (its frame's
    /// `pointsPerMillimetre`); nil otherwise.
    public let pointsPerMillimetre: Double?
    /// For a pointer's touch (`indirectPointer`): the buttons pressed, as UIKit's
    /// `buttonMask`; empty for other touches.
    public internal(set) var buttonMask: ButtonMask
    /// A pen's force and angles (`PenSample.upright` for other touches).
    public internal(set) var penSample: PenSample

    /// UIKit's `force`: for a pen's touch, the pressure from 0 to 1 (`maximumPossibleForce`
    /// is 1); 0 for other touches (no Linux touchscreen reports a finger's force the way
    /// UIKit's 3D Touch did).
    public var force: Double { penSample.force }
    /// UIKit's `maximumPossibleForce`: 1 for a pen's touch, 0 for others.
    public var maximumPossibleForce: Double { deviceKind == .pen ? 1 : 0 }
    /// UIKit's `altitudeAngle`: a pen's angle to the surface, π/2 upright (and for other
    /// touches).
    public var altitudeAngle: Double { penSample.altitudeAngle }

    /// UIKit's `azimuthAngle(in:)`: the direction a pen's top leans, in `view`'s coordinates
    /// (screen coordinates when nil): 0 along +x, π/2 along +y; 0 for other touches.
    public func azimuthAngle(in view: View?) -> Double {
        Touch.azimuth(penSample.azimuthAngle, in: view)
    }

    /// UIKit's `azimuthUnitVector(in:)`: the unit vector of `azimuthAngle(in:)`.
    public func azimuthUnitVector(in view: View?) -> Point {
        let a = azimuthAngle(in: view)
        return Point(x: cos(a), y: sin(a))
    }

    /// A screen azimuth in `view`'s coordinates (through its transforms), within [0, 2π).
    static func azimuth(_ screenAzimuth: Double, in view: View?) -> Double {
        guard let view else { return screenAzimuth }
        let v = view.convertVectorFromScreen(Point(x: cos(screenAzimuth), y: sin(screenAzimuth)))
        var a = atan2(v.y, v.x)
        if a < 0 { a += 2 * .pi }
        return a
    }

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
        self.penSample = frame.pen ?? .upright
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

extension Set where Element == Touch {
    /// The touches in a deterministic order: `order`'s for those it holds (the order the engine
    /// handed them over in, before they became a `Set` for UIKit's touch methods), then any
    /// others by id (a `Set`'s own order differs from one process to the next).
    func ordered(like order: [Touch]) -> [Touch] {
        if order.count == count, order.allSatisfy(contains) { return order }
        var ordered = order.filter(contains)
        if ordered.count < count {
            ordered += subtracting(ordered).sorted { $0.id < $1.id }
        }
        return ordered
    }
}
