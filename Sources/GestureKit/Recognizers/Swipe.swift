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

/// The swipe state machine: discrete. Recognizes when `touches` touches have travelled
/// `minimumDistance` points in an allowed direction within `maximumDuration` seconds of
/// touch-down, straying sideways no more than `maximumOffAxisRatio` of that. It fails when
/// the touches go another way (beyond the tap slop), take too long, or lift first.
public struct SwipeRecognition: Sendable {
    public var direction: SwipeDirection = .right
    public var numberOfTouchesRequired = 1
    public var minimumDistance = GestureDefaults.swipeMinimumDistancePoints
    public var maximumDuration = GestureDefaults.swipeMaximumDurationSeconds
    public var maximumOffAxisRatio = GestureDefaults.swipeMaximumOffAxisRatio
    /// Movement below this, in points, is not yet a direction (the tap slop).
    public var directionSlop = GestureDefaults.tapAllowableMovementPoints

    private var touches = TrackedTouches()
    private var start = Instant.zero
    private var lastCentroid = Point.zero
    private var travelled = Point.zero
    private var done = false
    public private(set) var location = Point.zero
    public private(set) var deadline: Instant?

    public init() {}

    public mutating func began(_ new: [Touch], at time: Instant) -> GestureDecision {
        guard !done else { return .none }
        if touches.isEmpty {
            start = time
            deadline = time.advanced(bySeconds: maximumDuration)
        }
        for t in new { touches.add(t) }
        lastCentroid = touches.centroid
        location = lastCentroid
        if touches.count > numberOfTouchesRequired {
            return .fail(.tooManyTouches(count: touches.count, allowed: numberOfTouchesRequired))
        }
        return .none
    }

    public mutating func moved(_ moved: [Touch], at time: Instant) -> GestureDecision {
        guard !done else { return .none }
        touches.update(moved)
        let c = touches.centroid
        let delta = c - lastCentroid
        lastCentroid = c
        location = c
        return travel(by: delta, fingers: touches.count, at: time)
    }

    private mutating func travel(by delta: Point, fingers: Int, at time: Instant) -> GestureDecision {
        travelled = travelled + delta
        let elapsed = time.seconds(since: start)
        if elapsed > maximumDuration {
            return .fail(.swipeTooSlow(seconds: elapsed, allowed: maximumDuration))
        }
        let distance = travelled.distance(to: .zero)
        guard distance > directionSlop * touches.distanceScale else { return .none }
        let dominant = SwipeDirection.dominant(of: travelled)
        guard direction.contains(dominant) else { return .fail(.swipeWrongDirection(moved: dominant)) }
        let along = dominant == .left || dominant == .right ? abs(travelled.x) : abs(travelled.y)
        let across = dominant == .left || dominant == .right ? abs(travelled.y) : abs(travelled.x)
        guard along >= minimumDistance * touches.distanceScale, fingers == numberOfTouchesRequired,
              across <= along * maximumOffAxisRatio else { return .none }
        done = true
        deadline = nil
        return .recognize(.swiped(points: along, direction: dominant))
    }

    public mutating func ended(_ lifted: [Touch], at time: Instant) -> GestureDecision {
        guard !done else { return .none }
        touches.update(lifted)
        touches.remove(lifted)
        return .fail(.touchesLiftedWithoutGesture)
    }

    public mutating func deadlineReached(at time: Instant) -> GestureDecision {
        guard !done else { return .none }
        deadline = nil
        return .fail(.swipeTooSlow(seconds: time.seconds(since: start), allowed: maximumDuration))
    }

    /// A touchpad swipe (libinput's GESTURE_SWIPE) with the required fingers.
    public mutating func touchpadSwipe(_ event: TouchpadGestureEvent) -> GestureDecision {
        location = event.location
        switch event.phase {
        case .begin:
            start = event.time
            guard event.fingers == numberOfTouchesRequired else {
                return .fail(event.fingers > numberOfTouchesRequired
                    ? .tooManyTouches(count: event.fingers, allowed: numberOfTouchesRequired)
                    : .tooFewTouches(count: event.fingers, required: numberOfTouchesRequired))
            }
            deadline = event.time.advanced(bySeconds: maximumDuration)
            return .none
        case .update:
            guard !done else { return .none }
            return travel(by: event.delta, fingers: event.fingers, at: event.time)
        case .end, .cancel:
            return done ? .none : .fail(.touchpadGesture(.swipe, event.phase))
        }
    }

    public mutating func reset() {
        touches.removeAll()
        travelled = .zero
        done = false
        deadline = nil
    }
}

/// UIKit's `UISwipeGestureRecognizer`: discrete. See `SwipeRecognition`.
public final class SwipeGestureRecognizer: GestureRecognizer {
    public var machine = SwipeRecognition()

    public var direction: SwipeDirection {
        get { machine.direction }
        set { machine.direction = newValue }
    }
    public var numberOfTouchesRequired: Int {
        get { machine.numberOfTouchesRequired }
        set { machine.numberOfTouchesRequired = max(1, newValue) }
    }

    public init(direction: SwipeDirection = .right, touches: Int = 1, name: String? = nil,
                action: ((SwipeGestureRecognizer) -> Void)? = nil) {
        super.init(name: name)
        self.direction = direction
        numberOfTouchesRequired = touches
        if let action { addTarget { action($0 as! SwipeGestureRecognizer) } }
    }

    public override class var defaultNamePrefix: String { "swipe" }
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
    public override func understands(_ kind: TouchpadGestureEvent.Kind) -> Bool { kind == .swipe }
    public override func touchpadGesture(_ event: TouchpadGestureEvent) -> GestureDecision {
        machine.touchpadSwipe(event)
    }
    public override func reset() { machine.reset() }
    public override var screenLocation: Point { machine.location }
}
