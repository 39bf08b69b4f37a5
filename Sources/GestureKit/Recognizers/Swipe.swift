/// The directions a swipe may go (UIKit's `UISwipeGestureRecognizer.Direction`).
public struct SwipeDirection: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let right = SwipeDirection(rawValue: 1 << 0)
    public static let left = SwipeDirection(rawValue: 1 << 1)
    public static let up = SwipeDirection(rawValue: 1 << 2)
    public static let down = SwipeDirection(rawValue: 1 << 3)
    public static let all: SwipeDirection = [.right, .left, .up, .down]

    /// The direction a movement mostly goes in (screen y grows downwards).
    public static func dominant(of delta: Point) -> SwipeDirection {
        if abs(delta.x) >= abs(delta.y) { return delta.x >= 0 ? .right : .left }
        return delta.y >= 0 ? .down : .up
    }

    public var description: String {
        var names: [String] = []
        if contains(.right) { names.append("right") }
        if contains(.left) { names.append("left") }
        if contains(.up) { names.append("up") }
        if contains(.down) { names.append("down") }
        return names.isEmpty ? "none" : names.joined(separator: "|")
    }
}

/// The swipe state machine: discrete. Recognizes when `numberOfTouchesRequired` touches have
/// travelled `minimumDistance` points in an allowed direction within `maximumDuration` of
/// touch-down, straying sideways no more than `maximumOffAxisRatio` of that. It fails when
/// the touches go another way (beyond the tap slop), take too long, or lift first. A
/// touchpad swipe (libinput's GESTURE_SWIPE) of as many fingers swipes too.
public struct SwipeStateMachine: GestureStateMachine {
    public static let kind = GestureRecognizer.Kind.discrete
    public static let namePrefix = "swipe"

    public var direction: SwipeDirection = .right
    public var numberOfTouchesRequired = 1
    /// How far the touches must travel in the swipe's direction, in points.
    public var minimumDistance = GestureDefaults.swipeMinimumDistancePoints
    /// How long the swipe may take from touch-down to reaching its distance.
    public var maximumDuration = GestureDefaults.swipeMaximumDuration
    /// The most sideways movement per point of movement in the swipe's direction.
    public var maximumOffAxisRatio = GestureDefaults.swipeMaximumOffAxisRatio
    /// Movement below this, in points, is not yet a direction (the tap slop).
    public var directionSlop = GestureDefaults.tapAllowableMovementPoints

    enum State: Sendable {
        /// No touch yet.
        case idle
        /// Touches down since `start`; `travelled` is the centroid's movement so far.
        case tracking(start: Instant, travelled: Point)
        /// Recognized.
        case recognized
    }

    private(set) var state = State.idle
    private var touches = TrackedTouches()
    /// The centroid at the last event, to measure the next one's movement from.
    private var lastCentroid = Point.zero
    public private(set) var location = Point.zero

    public init() {}

    public var deadline: Instant? {
        if case let .tracking(start, _) = state { start + maximumDuration } else { nil }
    }

    public mutating func touchesBegan(_ new: [Touch], at time: Instant) -> GestureDecision {
        switch state {
        case .recognized: return .none
        case .idle: state = .tracking(start: time, travelled: .zero)
        case .tracking: break
        }
        for t in new { touches.add(t) }
        lastCentroid = touches.centroid
        location = lastCentroid
        if touches.count > numberOfTouchesRequired {
            return .fail(.tooManyTouches(count: touches.count, allowed: numberOfTouchesRequired))
        }
        return .none
    }

    public mutating func touchesMoved(_ moved: [Touch], at time: Instant) -> GestureDecision {
        guard case .tracking = state else { return .none }
        touches.update(moved)
        let c = touches.centroid
        let delta = c - lastCentroid
        lastCentroid = c
        location = c
        return travel(by: delta, fingers: touches.count, at: time)
    }

    private mutating func travel(by delta: Point, fingers: Int, at time: Instant) -> GestureDecision {
        guard case let .tracking(start, travelledSoFar) = state else { return .none }
        let travelled = travelledSoFar + delta
        state = .tracking(start: start, travelled: travelled)
        // In nanoseconds: a `Duration` made on every move costs more than the rest of it.
        if time.nanoseconds &- start.nanoseconds > maximumDuration.nanosecondCount {
            return .fail(.swipeTooSlow(took: time - start, allowed: maximumDuration))
        }
        let distance = travelled.distance(to: .zero)
        guard distance > directionSlop * touches.distanceScale else { return .none }
        let dominant = SwipeDirection.dominant(of: travelled)
        guard direction.contains(dominant) else { return .fail(.swipeWrongDirection(moved: dominant)) }
        let horizontal = dominant == .left || dominant == .right
        let along = horizontal ? abs(travelled.x) : abs(travelled.y)
        let across = horizontal ? abs(travelled.y) : abs(travelled.x)
        guard along >= minimumDistance * touches.distanceScale, fingers == numberOfTouchesRequired,
              across <= along * maximumOffAxisRatio else { return .none }
        state = .recognized
        return .recognize(.swiped(points: along, direction: dominant))
    }

    public mutating func touchesEnded(_ lifted: [Touch], at time: Instant) -> GestureDecision {
        guard case .tracking = state else { return .none }
        touches.update(lifted)
        touches.remove(lifted)
        return .fail(.touchesLiftedWithoutGesture)
    }

    public mutating func deadlineReached(at time: Instant) -> GestureDecision {
        guard case let .tracking(start, _) = state else { return .none }
        return .fail(.swipeTooSlow(took: time - start, allowed: maximumDuration))
    }

    public static func understands(_ kind: TouchpadGestureEvent.Kind) -> Bool { kind == .swipe }

    /// A touchpad swipe (libinput's GESTURE_SWIPE) with the required fingers.
    public mutating func touchpadGesture(_ event: TouchpadGestureEvent) -> GestureDecision {
        location = event.location
        switch event.phase {
        case .begin:
            guard event.fingers == numberOfTouchesRequired else {
                return .fail(event.fingers > numberOfTouchesRequired
                    ? .tooManyTouches(count: event.fingers, allowed: numberOfTouchesRequired)
                    : .tooFewTouches(count: event.fingers, required: numberOfTouchesRequired))
            }
            state = .tracking(start: event.time, travelled: .zero)
            return .none
        case .update:
            return travel(by: event.delta, fingers: event.fingers, at: event.time)
        case .end, .cancel:
            if case .recognized = state { return .none }
            return .fail(.touchpadGesture(.swipe, event.phase))
        }
    }

    public mutating func reset() {
        touches.removeAll()
        state = .idle
    }
}

/// UIKit's `UISwipeGestureRecognizer`: discrete. See `SwipeStateMachine`.
open class SwipeGestureRecognizer: StateMachineGestureRecognizer<SwipeStateMachine> {
    public var direction: SwipeDirection {
        get { machine.direction }
        set { machine.direction = newValue }
    }
    public var numberOfTouchesRequired: Int {
        get { machine.numberOfTouchesRequired }
        set { machine.numberOfTouchesRequired = max(1, newValue) }
    }
    /// How far the touches must travel in the swipe's direction, in points.
    public var minimumDistance: Double {
        get { machine.minimumDistance }
        set { machine.minimumDistance = newValue }
    }
    /// How long the swipe may take from touch-down to reaching its distance.
    public var maximumDuration: Duration {
        get { machine.maximumDuration }
        set { machine.maximumDuration = newValue }
    }
    /// The most sideways movement per point of movement in the swipe's direction.
    public var maximumOffAxisRatio: Double {
        get { machine.maximumOffAxisRatio }
        set { machine.maximumOffAxisRatio = newValue }
    }

    package override class var builtInClass: GestureRecognizer.Type { SwipeGestureRecognizer.self }

    public convenience init(direction: SwipeDirection = .right, touches: Int = 1, name: String? = nil,
                action: ((SwipeGestureRecognizer) -> Void)? = nil) {
        self.init(name: name)
        self.direction = direction
        numberOfTouchesRequired = touches
        if let action { addTarget(action) }
    }
}
