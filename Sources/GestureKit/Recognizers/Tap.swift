/// The tap state machine: any number of taps of any number of touches; a double tap is a tap
/// with `numberOfTapsRequired == 2`. It recognizes when the last touch of the last tap lifts,
/// and fails as soon as the input cannot be that tap any more.
public struct TapStateMachine: TapCountingStateMachine {
    public static let kind = GestureRecognizer.Kind.discrete
    public static let namePrefix = "tap"

    public var numberOfTapsRequired = 1 {
        didSet { numberOfTapsRequired = max(1, numberOfTapsRequired) }
    }
    public var numberOfTouchesRequired = 1 {
        didSet { numberOfTouchesRequired = max(1, numberOfTouchesRequired) }
    }
    /// How far a touch may travel from where it went down, in points.
    public var allowableMovement = GestureDefaults.tapAllowableMovementPoints
    /// How long a touch may stay down.
    public var maximumTapDuration = GestureDefaults.maximumTapDuration
    /// From one tap's touch-up to the next tap's touch-down.
    public var maximumTapInterval = GestureDefaults.maximumTapInterval
    /// How far a later tap may land from the first, in points.
    public var maximumTapDistance = GestureDefaults.maximumTapDistancePoints

    /// Where the taps are.
    enum State: Sendable {
        /// No touch yet.
        case idle
        /// Touches are down for the next tap.
        case touching(Tapping)
        /// A tap is done and more are required: waiting for the next touch-down.
        case betweenTaps(tapsCompleted: Int, firstTapLocation: Point, lastUp: Instant)
        /// Every tap was made.
        case recognized
    }

    struct Tapping: Sendable {
        var tapsCompleted: Int
        /// Where the first tap was (for later taps).
        var firstTapLocation: Point
        var start: Instant
        var touchesDown = 0
        var mostTouchesDown = 0
    }

    private(set) var state = State.idle
    /// This tap's touches, including those already lifted (the tap is located at the
    /// centroid of all of them).
    private var touches = TrackedTouches()
    public private(set) var location = Point.zero

    public init() {}

    public var deadline: Instant? {
        switch state {
        case let .touching(tap): tap.start + maximumTapDuration
        case let .betweenTaps(_, _, lastUp): lastUp + maximumTapInterval
        case .idle, .recognized: nil
        }
    }

    public mutating func touchesBegan(_ new: [Touch], at time: Instant) -> GestureDecision {
        var tap: Tapping
        switch state {
        case .recognized:
            return .none
        case .idle:
            tap = Tapping(tapsCompleted: 0, firstTapLocation: .zero, start: time)
            touches.removeAll()
        case let .betweenTaps(taps, first, lastUp):
            // A pause exactly as long as the interval is still allowed.
            if time - lastUp > maximumTapInterval {
                return .fail(.tapIntervalExpired(allowed: maximumTapInterval))
            }
            tap = Tapping(tapsCompleted: taps, firstTapLocation: first, start: time)
            touches.removeAll()
        case let .touching(current):
            tap = current
        }
        for t in new { touches.add(t) }
        tap.touchesDown += new.count
        tap.mostTouchesDown = max(tap.mostTouchesDown, tap.touchesDown)
        state = .touching(tap)
        location = touches.centroid
        if tap.touchesDown > numberOfTouchesRequired {
            return .fail(.tooManyTouches(count: tap.touchesDown, allowed: numberOfTouchesRequired))
        }
        if tap.tapsCompleted > 0 {
            let d = location.distance(to: tap.firstTapLocation)
            let allowed = maximumTapDistance * touches.distanceScale
            if d > allowed {
                return .fail(.tapTooFarFromFirst(points: d, allowed: allowed))
            }
        }
        return .none
    }

    public mutating func touchesMoved(_ moved: [Touch], at time: Instant) -> GestureDecision {
        guard case .touching = state else { return .none }
        let farthest = touches.update(moved)
        location = touches.centroid
        let allowed = allowableMovement * touches.distanceScale
        return farthest > allowed ? .fail(.movedTooFar(points: farthest, allowed: allowed)) : .none
    }

    public mutating func touchesEnded(_ lifted: [Touch], at time: Instant) -> GestureDecision {
        guard case var .touching(tap) = state else { return .none }
        let farthest = touches.update(lifted)
        let allowed = allowableMovement * touches.distanceScale
        if farthest > allowed {
            return .fail(.movedTooFar(points: farthest, allowed: allowed))
        }
        location = touches.centroid
        tap.touchesDown -= lifted.count
        state = .touching(tap)
        guard tap.touchesDown <= 0 else { return .none }
        if tap.mostTouchesDown < numberOfTouchesRequired {
            return .fail(.tooFewTouches(count: tap.mostTouchesDown, required: numberOfTouchesRequired))
        }
        let held = time - tap.start
        if held > maximumTapDuration {
            return .fail(.heldTooLong(held: held, allowed: maximumTapDuration))
        }
        let taps = tap.tapsCompleted + 1
        if taps >= numberOfTapsRequired {
            state = .recognized
            return .recognize(.tapsCompleted(taps: taps, touches: numberOfTouchesRequired))
        }
        state = .betweenTaps(tapsCompleted: taps, firstTapLocation: taps == 1 ? location : tap.firstTapLocation,
                             lastUp: time)
        return .none
    }

    public mutating func deadlineReached(at time: Instant) -> GestureDecision {
        switch state {
        case let .touching(tap):
            return .fail(.heldTooLong(held: time - tap.start, allowed: maximumTapDuration))
        case .betweenTaps:
            return .fail(.tapIntervalExpired(allowed: maximumTapInterval))
        case .idle, .recognized:
            return .none
        }
    }

    public mutating func reset() {
        state = .idle
        touches.removeAll()
    }
}

/// UIKit's `UITapGestureRecognizer`: discrete; recognizes when the required number of taps
/// with the required number of touches has been made.
open class TapGestureRecognizer: StateMachineGestureRecognizer<TapStateMachine> {
    /// UIKit's `buttonMaskRequired`: the pointer buttons whose clicks this tap sees (a
    /// right-click menu: `.secondary`). Default `.primary`. Touches of other types are
    /// unaffected.
    public var buttonMaskRequired: ButtonMask = .primary

    override func buttonsAllowed(_ buttons: ButtonMask) -> Bool {
        !buttons.isEmpty && buttons.isSubset(of: buttonMaskRequired)
    }

    /// The longest a touch may stay down and still be a tap.
    public var maximumTapDuration: Duration {
        get { machine.maximumTapDuration }
        set { machine.maximumTapDuration = newValue }
    }

    /// The longest pause from one tap's touch-up to the next tap's touch-down.
    public var maximumTapInterval: Duration {
        get { machine.maximumTapInterval }
        set { machine.maximumTapInterval = newValue }
    }

    /// How far a later tap may land from the first, in points.
    public var maximumTapDistance: Double {
        get { machine.maximumTapDistance }
        set { machine.maximumTapDistance = newValue }
    }

    package override class var builtInClass: GestureRecognizer.Type { TapGestureRecognizer.self }

    public convenience init(taps: Int = 1, touches: Int = 1, name: String? = nil,
                action: ((TapGestureRecognizer) -> Void)? = nil) {
        self.init(name: name)
        numberOfTapsRequired = taps
        numberOfTouchesRequired = touches
        if let action { addTarget(action) }
    }
}
