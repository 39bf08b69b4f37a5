/// The pan state machine. Follows the centroid of `minimumTouches`…`maximumTouches`
/// touches; begins when it has moved `threshold` points; `translation` is the movement since
/// `began` ((0, 0) at began, continuous when touches join or leave); `velocity` in points
/// per second.
public struct PanRecognition: Sendable {
    public var minimumTouches = 1
    public var maximumTouches = Int.max
    /// Points the centroid must move before the pan begins.
    public var threshold = GestureDefaults.panThresholdPoints

    private var touches = TrackedTouches()
    private(set) var isActive = false
    private var lastCentroid = Point.zero
    private var moved = Point.zero
    private var lastTime = Instant.zero
    public private(set) var translation = Point.zero
    public private(set) var velocity = Point.zero
    public private(set) var location = Point.zero

    public init() {}

    public mutating func began(_ new: [Touch], at time: Instant) -> GestureDecision {
        for t in new { touches.add(t) }
        lastCentroid = touches.centroid
        location = lastCentroid
        if !isActive && touches.count > maximumTouches {
            return .fail(.tooManyTouches(count: touches.count, allowed: maximumTouches))
        }
        return .none
    }

    public mutating func moved(_ movedTouches: [Touch], at time: Instant) -> GestureDecision {
        touches.update(movedTouches)
        let c = touches.centroid
        let delta = c - lastCentroid
        lastCentroid = c
        location = c
        return move(by: delta, at: time)
    }

    private mutating func move(by delta: Point, at time: Instant) -> GestureDecision {
        if !isActive {
            moved = moved + delta
            let distance = moved.distance(to: .zero)
            let scaled = threshold * touches.distanceScale
            guard distance >= scaled, touches.count >= minimumTouches || touches.isEmpty else { return .none }
            isActive = true
            translation = .zero
            velocity = .zero
            lastTime = time
            return .begin(.panned(points: distance, threshold: scaled))
        }
        let dt = time.seconds(since: lastTime)
        if dt > 0 { velocity = delta / dt }
        translation = translation + delta
        lastTime = time
        return .change
    }

    public mutating func ended(_ lifted: [Touch], at time: Instant) -> GestureDecision {
        touches.update(lifted)
        touches.remove(lifted)
        lastCentroid = touches.centroid
        if !touches.isEmpty { location = lastCentroid }
        if isActive {
            return touches.count < max(1, minimumTouches) ? .recognize(.touchesEnded) : .none
        }
        return touches.isEmpty ? .fail(.touchesLiftedWithoutGesture) : .none
    }

    /// A touchpad swipe (libinput's GESTURE_SWIPE) pans by its deltas.
    public mutating func touchpadSwipe(_ event: TouchpadGestureEvent) -> GestureDecision {
        location = event.location
        switch event.phase {
        case .begin:
            if event.fingers < minimumTouches {
                return .fail(.tooFewTouches(count: event.fingers, required: minimumTouches))
            }
            if event.fingers > maximumTouches {
                return .fail(.tooManyTouches(count: event.fingers, allowed: maximumTouches))
            }
            return .none
        case .update:
            return move(by: event.delta, at: event.time)
        case .end:
            return isActive ? .recognize(.touchpadGesture(.swipe, .end)) : .fail(.touchpadGesture(.swipe, .end))
        case .cancel:
            return .cancel(.touchpadGesture(.swipe, .cancel))
        }
    }

    public mutating func reset() {
        touches.removeAll()
        isActive = false
        moved = .zero
        translation = .zero
        velocity = .zero
    }
}

/// UIKit's `UIPanGestureRecognizer`: continuous. See `PanRecognition`.
public final class PanGestureRecognizer: GestureRecognizer {
    public var machine = PanRecognition()

    public var minimumNumberOfTouches: Int {
        get { machine.minimumTouches }
        set { machine.minimumTouches = max(1, newValue) }
    }
    public var maximumNumberOfTouches: Int {
        get { machine.maximumTouches }
        set { machine.maximumTouches = max(1, newValue) }
    }
    public var threshold: Double {
        get { machine.threshold }
        set { machine.threshold = newValue }
    }
    /// Points moved since `began`.
    public var translation: Point { machine.translation }
    /// Points per second.
    public var velocity: Point { machine.velocity }

    public init(minimumTouches: Int = 1, maximumTouches: Int = .max, name: String? = nil,
                action: ((PanGestureRecognizer) -> Void)? = nil) {
        super.init(name: name)
        minimumNumberOfTouches = minimumTouches
        maximumNumberOfTouches = maximumTouches
        if let action { addTarget { action($0 as! PanGestureRecognizer) } }
    }

    public override class var defaultNamePrefix: String { "pan" }
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
    public override func understands(_ kind: TouchpadGestureEvent.Kind) -> Bool { kind == .swipe }
    public override func touchpadGesture(_ event: TouchpadGestureEvent) -> GestureDecision {
        machine.touchpadSwipe(event)
    }
    public override func reset() { machine.reset() }
    public override var screenLocation: Point { machine.location }
    public override var values: GestureValues {
        GestureValues(translation: machine.translation, velocityVector: machine.velocity)
    }
}
