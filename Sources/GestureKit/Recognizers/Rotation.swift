/// The rotation state machine: follows the angle of the line through the first two
/// touches. It begins when that line has turned `threshold` radians; `rotation` is the
/// angle turned since `began` (0 at began), clockwise positive on screen (y grows
/// downwards, as UIKit); `velocity` is radians per second.
public struct RotationRecognition: Sendable {
    /// Radians the touches must turn before the rotation begins.
    public var threshold = GestureDefaults.rotationThresholdRadians

    private var touches = TrackedTouches()
    private(set) var isActive = false
    private var lastAngle: Double?
    private var turned = 0.0
    private var lastTime = Instant.zero
    public private(set) var rotation = 0.0
    public private(set) var velocity = 0.0
    public private(set) var location = Point.zero

    public init() {}

    public mutating func began(_ new: [Touch], at time: Instant) -> GestureDecision {
        for t in new { touches.add(t) }
        location = touches.centroid
        lastAngle = touches.angle
        return .none
    }

    public mutating func moved(_ moved: [Touch], at time: Instant) -> GestureDecision {
        touches.update(moved)
        location = touches.centroid
        guard let angle = touches.angle else { return .none }
        let delta = lastAngle.map { angleDifference(angle, $0) } ?? 0
        lastAngle = angle
        if !isActive {
            turned += delta
            guard abs(turned) >= threshold else { return .none }
            isActive = true
            rotation = 0
            velocity = 0
            lastTime = time
            return .begin(.rotated(radians: turned, threshold: threshold))
        }
        return turn(by: delta, at: time)
    }

    private mutating func turn(by delta: Double, at time: Instant) -> GestureDecision {
        let dt = time.seconds(since: lastTime)
        if dt > 0 { velocity = delta / dt }
        rotation += delta
        lastTime = time
        return .change
    }

    public mutating func ended(_ lifted: [Touch], at time: Instant) -> GestureDecision {
        touches.update(lifted)
        touches.remove(lifted)
        lastAngle = touches.angle
        if !touches.isEmpty { location = touches.centroid }
        if isActive { return touches.count < 2 ? .recognize(.touchesEnded) : .none }
        return touches.isEmpty ? .fail(.touchesLiftedWithoutGesture) : .none
    }

    /// A touchpad pinch's angle changes turn the rotation too.
    public mutating func touchpadPinch(_ event: TouchpadGestureEvent) -> GestureDecision {
        location = event.location
        let delta = event.angleDelta * Double.pi / 180
        switch event.phase {
        case .begin:
            turned = delta
            return .none
        case .update:
            if !isActive {
                turned += delta
                guard abs(turned) >= threshold else { return .none }
                isActive = true
                rotation = 0
                velocity = 0
                lastTime = event.time
                return .begin(.rotated(radians: turned, threshold: threshold))
            }
            return turn(by: delta, at: event.time)
        case .end:
            return isActive ? .recognize(.touchpadGesture(.pinch, .end)) : .fail(.touchpadGesture(.pinch, .end))
        case .cancel:
            return .cancel(.touchpadGesture(.pinch, .cancel))
        }
    }

    public mutating func reset() {
        touches.removeAll()
        isActive = false
        lastAngle = nil
        turned = 0
        rotation = 0
        velocity = 0
    }
}

/// UIKit's `UIRotationGestureRecognizer`: continuous. See `RotationRecognition`.
public final class RotationGestureRecognizer: GestureRecognizer {
    public var machine = RotationRecognition()

    /// Radians since `began`, clockwise positive.
    public var rotation: Double { machine.rotation }
    /// Radians per second.
    public var velocity: Double { machine.velocity }

    public init(name: String? = nil, action: ((RotationGestureRecognizer) -> Void)? = nil) {
        super.init(name: name)
        if let action { addTarget { action($0 as! RotationGestureRecognizer) } }
    }

    public override class var defaultNamePrefix: String { "rotation" }
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
    public override func understands(_ kind: TouchpadGestureEvent.Kind) -> Bool { kind == .pinch }
    public override func touchpadGesture(_ event: TouchpadGestureEvent) -> GestureDecision {
        machine.touchpadPinch(event)
    }
    public override func reset() { machine.reset() }
    public override var screenLocation: Point { machine.location }
    public override var values: GestureValues {
        GestureValues(velocity: machine.velocity, rotation: machine.rotation)
    }
}
