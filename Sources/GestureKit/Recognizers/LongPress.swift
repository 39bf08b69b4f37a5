/// The long-press state machine: `numberOfTapsRequired` quick taps, then
/// `numberOfTouchesRequired` touches held still for `minimumPressDuration` (counted from
/// touch-down); it then follows the touches until they lift. A touchpad hold (libinput's
/// GESTURE_HOLD: fingers resting on the pad) is no long press: on an iPad a long press with a
/// pointer is a click held, and a finger resting on the trackpad does nothing, as GTK's long
/// press ignores touchpad holds (REPLAY.md). A hold stops a decelerating scroll view instead.
public struct LongPressStateMachine: TapCountingStateMachine {
    public static let kind = GestureRecognizer.Kind.continuous
    public static let namePrefix = "longPress"

    /// How long the touches must stay down, from touch-down.
    public var minimumPressDuration = GestureDefaults.minimumPressDuration
    /// How far a touch may travel before the press begins, in points.
    public var allowableMovement = GestureDefaults.longPressAllowableMovementPoints
    public var numberOfTouchesRequired = 1 {
        didSet { numberOfTouchesRequired = max(1, numberOfTouchesRequired) }
    }
    /// Taps to make before the press (UIKit's `numberOfTapsRequired`, default 0).
    public var numberOfTapsRequired = 0 {
        didSet { numberOfTapsRequired = max(0, numberOfTapsRequired) }
    }
    /// For the taps before the press: the tap defaults.
    public var maximumTapDuration = GestureDefaults.maximumTapDuration
    public var maximumTapInterval = GestureDefaults.maximumTapInterval

    enum State: Sendable {
        /// No touch yet.
        case idle
        /// Touches are down for one of the taps before the press.
        case tapping(tapsCompleted: Int, start: Instant)
        /// A tap before the press is done: waiting for the next touch-down.
        case betweenTaps(tapsCompleted: Int, lastUp: Instant)
        /// Touches are down, held still.
        case pressing(start: Instant)
        /// Held long enough, but with too few touches: the press begins when the rest land.
        case durationElapsed(start: Instant)
        /// The press has begun.
        case active
    }

    private(set) var state = State.idle
    private var touches = TrackedTouches()
    public private(set) var location = Point.zero

    public init() {}

    public var isActive: Bool {
        if case .active = state { true } else { false }
    }

    public var deadline: Instant? {
        switch state {
        case let .tapping(_, start): start + maximumTapDuration
        case let .betweenTaps(_, lastUp): lastUp + maximumTapInterval
        case let .pressing(start): start + minimumPressDuration
        case .idle, .durationElapsed, .active: nil
        }
    }

    public mutating func touchesBegan(_ new: [Touch], at time: Instant) -> GestureDecision {
        switch state {
        case .active:
            for t in new { touches.add(t) }
            return .none
        case let .betweenTaps(taps, lastUp):
            if time - lastUp > maximumTapInterval {
                return .fail(.tapIntervalExpired(allowed: maximumTapInterval))
            }
            startTouching(tapsCompleted: taps, at: time)
        case .idle:
            startTouching(tapsCompleted: 0, at: time)
        case .tapping, .pressing, .durationElapsed:
            break
        }
        for t in new { touches.add(t) }
        location = touches.centroid
        if touches.count > numberOfTouchesRequired {
            return .fail(.tooManyTouches(count: touches.count, allowed: numberOfTouchesRequired))
        }
        if case let .durationElapsed(start) = state, touches.count == numberOfTouchesRequired {
            return beginPress(start: start, at: time)
        }
        return .none
    }

    private mutating func startTouching(tapsCompleted: Int, at time: Instant) {
        touches.removeAll()
        state = tapsCompleted < numberOfTapsRequired
            ? .tapping(tapsCompleted: tapsCompleted, start: time)
            : .pressing(start: time)
    }

    private mutating func beginPress(start: Instant, at time: Instant) -> GestureDecision {
        state = .active
        return .begin(.pressDurationReached(held: time - start, touches: touches.count))
    }

    public mutating func touchesMoved(_ moved: [Touch], at time: Instant) -> GestureDecision {
        let farthest = touches.update(moved)
        location = touches.centroid
        switch state {
        case .active:
            return .change
        case .tapping, .pressing, .durationElapsed:
            let allowed = allowableMovement * touches.distanceScale
            return farthest > allowed ? .fail(.movedTooFar(points: farthest, allowed: allowed)) : .none
        case .idle, .betweenTaps:
            return .none
        }
    }

    public mutating func touchesEnded(_ lifted: [Touch], at time: Instant) -> GestureDecision {
        touches.update(lifted)
        location = touches.centroid
        touches.remove(lifted)
        switch state {
        case .active:
            return .end(.touchesEnded)
        case let .tapping(taps, _):
            guard touches.isEmpty else { return .none }
            state = .betweenTaps(tapsCompleted: taps + 1, lastUp: time)
            return .none
        case let .pressing(start), let .durationElapsed(start):
            return .fail(.liftedBeforeDuration(held: time - start, required: minimumPressDuration))
        case .idle, .betweenTaps:
            return .none
        }
    }

    public mutating func deadlineReached(at time: Instant) -> GestureDecision {
        switch state {
        case let .pressing(start):
            if touches.count == numberOfTouchesRequired {
                return beginPress(start: start, at: time)
            }
            state = .durationElapsed(start: start)
            return .none
        case let .tapping(_, start):
            return .fail(.heldTooLong(held: time - start, allowed: maximumTapDuration))
        case .betweenTaps:
            return .fail(.tapIntervalExpired(allowed: maximumTapInterval))
        case .idle, .durationElapsed, .active:
            return .none
        }
    }

    public mutating func reset() {
        state = .idle
        touches.removeAll()
    }
}

/// UIKit's `UILongPressGestureRecognizer`: continuous. Begins once the touches have been held
/// for `minimumPressDuration` without moving more than `allowableMovement`; changes as they
/// move; ends when they lift. A touchpad hold (fingers resting on the pad) is no long press.
open class LongPressGestureRecognizer: StateMachineGestureRecognizer<LongPressStateMachine> {
    /// UIKit's `buttonMaskRequired`: the pointer buttons whose presses this long press sees.
    /// Default `.primary`. Touches of other types are unaffected.
    public var buttonMaskRequired: ButtonMask = .primary

    override func buttonsAllowed(_ buttons: ButtonMask) -> Bool {
        !buttons.isEmpty && buttons.isSubset(of: buttonMaskRequired)
    }

    /// How long the touches must stay down, from touch-down.
    public var minimumPressDuration: Duration {
        get { machine.minimumPressDuration }
        set { machine.minimumPressDuration = newValue }
    }

    package override class var builtInClass: GestureRecognizer.Type { LongPressGestureRecognizer.self }

    public convenience init(minimumPressDuration: Duration = GestureDefaults.minimumPressDuration,
                touches: Int = 1, name: String? = nil,
                action: ((LongPressGestureRecognizer) -> Void)? = nil) {
        self.init(name: name)
        self.minimumPressDuration = minimumPressDuration
        numberOfTouchesRequired = touches
        if let action { addTarget(action) }
    }
}
