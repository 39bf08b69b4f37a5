/// The tap state machine: a value type whose methods return decisions. Any number of taps
/// and touches; a double tap is a tap with `taps == 2`.
public struct TapRecognition: Sendable {
    public var numberOfTapsRequired = 1
    public var numberOfTouchesRequired = 1
    /// Points a touch may travel from where it went down.
    public var allowableMovement = GestureDefaults.tapAllowableMovementPoints
    /// Seconds a touch may stay down.
    public var maximumTapDuration = GestureDefaults.maximumTapDurationSeconds
    /// Seconds from one tap's touch-up to the next tap's touch-down.
    public var maximumTapInterval = GestureDefaults.maximumTapIntervalSeconds
    /// Points a later tap may land from the first.
    public var maximumTapDistance = GestureDefaults.maximumTapDistancePoints

    enum Phase: Sendable { case idle, touching, betweenTaps, done }

    private(set) var phase = Phase.idle
    private(set) var tapsCompleted = 0
    /// This tap's touches, including those already lifted (the tap is located at the
    /// centroid of all of them).
    private var touches = TrackedTouches()
    private var touchesDown = 0
    private var mostTouchesThisTap = 0
    private var tapStart = Instant.zero
    private var lastUp = Instant.zero
    private var firstTapLocation = Point.zero
    public private(set) var location = Point.zero
    public private(set) var deadline: Instant?

    public init() {}

    public mutating func began(_ new: [Touch], at time: Instant) -> GestureDecision {
        switch phase {
        case .done:
            return .none
        case .betweenTaps:
            // A pause exactly as long as the interval is still allowed.
            if time.seconds(since: lastUp) > maximumTapInterval {
                return .fail(.tapIntervalExpired(allowed: maximumTapInterval))
            }
            fallthrough
        case .idle:
            phase = .touching
            tapStart = time
            mostTouchesThisTap = 0
            touchesDown = 0
            touches.removeAll()
        case .touching:
            break
        }
        for t in new { touches.add(t) }
        touchesDown += new.count
        mostTouchesThisTap = max(mostTouchesThisTap, touchesDown)
        location = touches.centroid
        if touchesDown > numberOfTouchesRequired {
            return .fail(.tooManyTouches(count: touchesDown, allowed: numberOfTouchesRequired))
        }
        if tapsCompleted > 0 {
            let d = location.distance(to: firstTapLocation)
            let allowed = maximumTapDistance * touches.distanceScale
            if d > allowed {
                return .fail(.tapTooFarFromFirst(points: d, allowed: allowed))
            }
        }
        deadline = tapStart.advanced(bySeconds: maximumTapDuration)
        return .none
    }

    public mutating func moved(_ moved: [Touch], at time: Instant) -> GestureDecision {
        guard phase == .touching else { return .none }
        let farthest = touches.update(moved)
        location = touches.centroid
        if farthest > allowableMovement * touches.distanceScale {
            return .fail(.movedTooFar(points: farthest, allowed: allowableMovement * touches.distanceScale))
        }
        return .none
    }

    public mutating func ended(_ lifted: [Touch], at time: Instant) -> GestureDecision {
        guard phase == .touching else { return .none }
        let farthest = touches.update(lifted)
        if farthest > allowableMovement * touches.distanceScale {
            return .fail(.movedTooFar(points: farthest, allowed: allowableMovement * touches.distanceScale))
        }
        location = touches.centroid
        touchesDown -= lifted.count
        guard touchesDown <= 0 else { return .none }
        if mostTouchesThisTap < numberOfTouchesRequired {
            return .fail(.tooFewTouches(count: mostTouchesThisTap, required: numberOfTouchesRequired))
        }
        let held = time.seconds(since: tapStart)
        if held > maximumTapDuration {
            return .fail(.heldTooLong(seconds: held, allowed: maximumTapDuration))
        }
        tapsCompleted += 1
        if tapsCompleted == 1 { firstTapLocation = location }
        if tapsCompleted >= numberOfTapsRequired {
            phase = .done
            deadline = nil
            return .recognize(.tapsCompleted(taps: tapsCompleted, touches: numberOfTouchesRequired))
        }
        phase = .betweenTaps
        lastUp = time
        deadline = time.advanced(bySeconds: maximumTapInterval)
        return .none
    }

    public mutating func deadlineReached(at time: Instant) -> GestureDecision {
        switch phase {
        case .touching:
            deadline = nil
            return .fail(.heldTooLong(seconds: time.seconds(since: tapStart), allowed: maximumTapDuration))
        case .betweenTaps:
            deadline = nil
            return .fail(.tapIntervalExpired(allowed: maximumTapInterval))
        case .idle, .done:
            return .none
        }
    }

    public mutating func reset() {
        phase = .idle
        tapsCompleted = 0
        touches.removeAll()
        touchesDown = 0
        mostTouchesThisTap = 0
        deadline = nil
    }
}

/// UIKit's `UITapGestureRecognizer`: discrete; recognizes when the required number of taps
/// with the required number of touches has been made.
public final class TapGestureRecognizer: GestureRecognizer {
    public var machine = TapRecognition()

    public var numberOfTapsRequired: Int {
        get { machine.numberOfTapsRequired }
        set { machine.numberOfTapsRequired = max(1, newValue) }
    }
    public var numberOfTouchesRequired: Int {
        get { machine.numberOfTouchesRequired }
        set { machine.numberOfTouchesRequired = max(1, newValue) }
    }
    public var allowableMovement: Double {
        get { machine.allowableMovement }
        set { machine.allowableMovement = newValue }
    }
    public var maximumTapDuration: Double {
        get { machine.maximumTapDuration }
        set { machine.maximumTapDuration = newValue }
    }
    public var maximumTapInterval: Double {
        get { machine.maximumTapInterval }
        set { machine.maximumTapInterval = newValue }
    }
    public var maximumTapDistance: Double {
        get { machine.maximumTapDistance }
        set { machine.maximumTapDistance = newValue }
    }

    public init(taps: Int = 1, touches: Int = 1, name: String? = nil,
                action: ((TapGestureRecognizer) -> Void)? = nil) {
        super.init(name: name)
        numberOfTapsRequired = taps
        numberOfTouchesRequired = touches
        if let action { addTarget { action($0 as! TapGestureRecognizer) } }
    }

    public override class var defaultNamePrefix: String { "tap" }
    public override var kind: Kind { .discrete }
    public override func touchesBegan(_ touches: [Touch], at time: Instant) -> GestureDecision {
        machine.began(touches, at: time)
    }
    public override func touchesMoved(_ touches: [Touch], at time: Instant) -> GestureDecision {
        machine.moved(touches, at: time)
    }
    public override func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision {
        machine.ended(touches, at: time)
    }
    public override func deadlineReached(at time: Instant) -> GestureDecision {
        machine.deadlineReached(at: time)
    }
    public override var deadline: Instant? { machine.deadline }
    public override func reset() { machine.reset() }
    public override var screenLocation: Point { machine.location }
}
