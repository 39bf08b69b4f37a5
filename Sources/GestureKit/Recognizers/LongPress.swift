/// The long-press state machine: `taps` quick taps, then `touches` touches held still for
/// `minimumPressDuration` (counted from touch-down); it then follows the touches until they
/// lift.
public struct LongPressRecognition: Sendable {
    /// Seconds the touches must stay down, from touch-down.
    public var minimumPressDuration = GestureDefaults.minimumPressDurationSeconds
    /// Points a touch may travel before the press begins.
    public var allowableMovement = GestureDefaults.longPressAllowableMovementPoints
    public var numberOfTouchesRequired = 1
    /// Taps to make before the press (UIKit's `numberOfTapsRequired`, default 0).
    public var numberOfTapsRequired = 0
    /// For the taps before the press: the tap defaults.
    public var maximumTapDuration = GestureDefaults.maximumTapDurationSeconds
    public var maximumTapInterval = GestureDefaults.maximumTapIntervalSeconds

    enum Phase: Sendable { case idle, tapping, betweenTaps, pressing, durationElapsed, active }

    private(set) var phase = Phase.idle
    private var tapsCompleted = 0
    private var touches = TrackedTouches()
    private var start = Instant.zero
    private var lastUp = Instant.zero
    public private(set) var location = Point.zero
    public private(set) var deadline: Instant?
    /// A touchpad hold under way: its fingers.
    private var holdFingers = 0

    public init() {}

    var isActive: Bool { phase == .active }

    public mutating func began(_ new: [Touch], at time: Instant) -> GestureDecision {
        switch phase {
        case .active:
            for t in new { touches.add(t) }
            return .none
        case .betweenTaps:
            if time.seconds(since: lastUp) > maximumTapInterval {
                return .fail(.tapIntervalExpired(allowed: maximumTapInterval))
            }
            fallthrough
        case .idle:
            start = time
            touches.removeAll()
            if tapsCompleted < numberOfTapsRequired {
                phase = .tapping
                deadline = time.advanced(bySeconds: maximumTapDuration)
            } else {
                phase = .pressing
                deadline = time.advanced(bySeconds: minimumPressDuration)
            }
        case .tapping, .pressing, .durationElapsed:
            break
        }
        for t in new { touches.add(t) }
        location = touches.centroid
        if touches.count > numberOfTouchesRequired {
            return .fail(.tooManyTouches(count: touches.count, allowed: numberOfTouchesRequired))
        }
        if phase == .durationElapsed && touches.count == numberOfTouchesRequired {
            return beginPress(at: time)
        }
        return .none
    }

    private mutating func beginPress(at time: Instant) -> GestureDecision {
        phase = .active
        deadline = nil
        return .begin(.pressDurationReached(seconds: time.seconds(since: start), touches: touches.count))
    }

    public mutating func moved(_ moved: [Touch], at time: Instant) -> GestureDecision {
        let farthest = touches.update(moved)
        location = touches.centroid
        switch phase {
        case .active:
            return .change
        case .tapping, .pressing, .durationElapsed:
            if farthest > allowableMovement * touches.distanceScale {
                return .fail(.movedTooFar(points: farthest, allowed: allowableMovement * touches.distanceScale))
            }
            return .none
        case .idle, .betweenTaps:
            return .none
        }
    }

    public mutating func ended(_ lifted: [Touch], at time: Instant) -> GestureDecision {
        touches.update(lifted)
        location = touches.centroid
        touches.remove(lifted)
        switch phase {
        case .active:
            return .recognize(.touchesEnded)
        case .tapping:
            guard touches.isEmpty else { return .none }
            tapsCompleted += 1
            phase = .betweenTaps
            lastUp = time
            deadline = time.advanced(bySeconds: maximumTapInterval)
            return .none
        case .pressing, .durationElapsed:
            return .fail(.liftedBeforeDuration(seconds: time.seconds(since: start), required: minimumPressDuration))
        case .idle, .betweenTaps:
            return .none
        }
    }

    public mutating func deadlineReached(at time: Instant) -> GestureDecision {
        switch phase {
        case .pressing:
            if touches.count == numberOfTouchesRequired || (holdFingers > 0 && holdFingers == numberOfTouchesRequired) {
                return beginPress(at: time)
            }
            phase = .durationElapsed
            deadline = nil
            return .none
        case .tapping:
            deadline = nil
            return .fail(.heldTooLong(seconds: time.seconds(since: start), allowed: maximumTapDuration))
        case .betweenTaps:
            deadline = nil
            return .fail(.tapIntervalExpired(allowed: maximumTapInterval))
        case .idle, .durationElapsed, .active:
            return .none
        }
    }

    /// A touchpad hold (libinput's GESTURE_HOLD) is a long press of its fingers.
    public mutating func hold(_ event: TouchpadGestureEvent) -> GestureDecision {
        location = event.location
        switch event.phase {
        case .begin:
            guard numberOfTapsRequired == 0 else { return .fail(.tooFewTouches(count: 0, required: numberOfTapsRequired)) }
            if event.fingers != numberOfTouchesRequired {
                return .fail(event.fingers > numberOfTouchesRequired
                    ? .tooManyTouches(count: event.fingers, allowed: numberOfTouchesRequired)
                    : .tooFewTouches(count: event.fingers, required: numberOfTouchesRequired))
            }
            holdFingers = event.fingers
            start = event.time
            phase = .pressing
            deadline = event.time.advanced(bySeconds: minimumPressDuration)
            return .none
        case .update:
            return phase == .active ? .change : .none
        case .end:
            if phase == .active { return .recognize(.touchpadGesture(.hold, .end)) }
            return .fail(.liftedBeforeDuration(seconds: event.time.seconds(since: start), required: minimumPressDuration))
        case .cancel:
            return phase == .active ? .cancel(.touchpadGesture(.hold, .cancel)) : .fail(.touchpadGesture(.hold, .cancel))
        }
    }

    public mutating func reset() {
        phase = .idle
        tapsCompleted = 0
        touches.removeAll()
        deadline = nil
        holdFingers = 0
    }
}

/// UIKit's `UILongPressGestureRecognizer`: continuous. Begins once the touches have been held
/// for `minimumPressDuration` without moving more than `allowableMovement`; changes as they
/// move; ends when they lift. A touchpad hold of the same number of fingers counts too.
public final class LongPressGestureRecognizer: GestureRecognizer {
    public var machine = LongPressRecognition()

    public var minimumPressDuration: Double {
        get { machine.minimumPressDuration }
        set { machine.minimumPressDuration = newValue }
    }
    public var allowableMovement: Double {
        get { machine.allowableMovement }
        set { machine.allowableMovement = newValue }
    }
    public var numberOfTouchesRequired: Int {
        get { machine.numberOfTouchesRequired }
        set { machine.numberOfTouchesRequired = max(1, newValue) }
    }
    public var numberOfTapsRequired: Int {
        get { machine.numberOfTapsRequired }
        set { machine.numberOfTapsRequired = max(0, newValue) }
    }

    public init(minimumPressDuration: Double = GestureDefaults.minimumPressDurationSeconds,
                touches: Int = 1, name: String? = nil,
                action: ((LongPressGestureRecognizer) -> Void)? = nil) {
        super.init(name: name)
        self.minimumPressDuration = minimumPressDuration
        numberOfTouchesRequired = touches
        if let action { addTarget { action($0 as! LongPressGestureRecognizer) } }
    }

    public override class var defaultNamePrefix: String { "longPress" }
    public override var kind: Kind { .continuous }
    public override func touchesBegan(_ touches: [Touch], at time: Instant) -> GestureDecision {
        machine.began(touches, at: time)
    }
    public override func touchesMoved(_ touches: [Touch], at time: Instant) -> GestureDecision {
        machine.moved(touches, at: time)
    }
    public override func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision {
        machine.ended(touches, at: time)
    }
    public override func touchesCancelled(_ touches: [Touch], at time: Instant) -> GestureDecision {
        .cancel(.touchesCancelled)
    }
    public override func deadlineReached(at time: Instant) -> GestureDecision {
        machine.deadlineReached(at: time)
    }
    public override var deadline: Instant? { machine.deadline }
    public override func understands(_ kind: TouchpadGestureEvent.Kind) -> Bool { kind == .hold }
    public override func touchpadGesture(_ event: TouchpadGestureEvent) -> GestureDecision {
        machine.hold(event)
    }
    public override func reset() { machine.reset() }
    public override var screenLocation: Point { machine.location }
}
