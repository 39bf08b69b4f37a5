/// The rotation state machine: follows the angle of the line through the first two
/// touches. It begins when that line has turned `threshold` radians; `rotation` is the
/// angle from the line between the fingers at their initial positions (UIKit: that line
/// "represents a rotation angle of 0"), so at `began` it already holds the turn that began
/// it; clockwise positive on screen (y grows downwards, as UIKit); `velocity` is radians
/// per second. It ends when the last finger
/// lifts, and a finger put back carries it on from the angle it had. A touchpad pinch's angle changes
/// (libinput's GESTURE_PINCH) turn it too.
public struct RotationStateMachine: GestureStateMachine {
    public static let kind = GestureRecognizer.Kind.continuous
    public static let namePrefix = "rotation"

    /// How far the touches must turn before the rotation begins, in radians.
    public var threshold = GestureDefaults.rotationThresholdRadians

    enum State: Sendable {
        /// Not begun: how far the touches have turned so far, in radians.
        case tracking(turned: Double)
        /// Begun.
        case rotating
    }

    private(set) var state = State.tracking(turned: 0)
    private var touches = TrackedTouches()
    /// The angle of the first two touches at the last event.
    private var lastAngle: Double?
    public private(set) var rotation = 0.0
    /// Radians per second, of recent rotation; fitted when read (`LazyVelocity`).
    public var velocity: Double { recentVelocity.value.x }
    public private(set) var location = Point.zero
    /// Recent rotations, for the velocity (x is the rotation).
    private var recentVelocity = LazyVelocity()

    public init() {}

    public var isActive: Bool {
        if case .rotating = state { true } else { false }
    }

    public var values: GestureValues { GestureValues(velocity: velocity, rotation: rotation) }

    public mutating func touchesBegan(_ new: [Touch], at time: Instant) -> GestureDecision {
        for t in new { touches.add(t) }
        location = touches.centroid
        lastAngle = touches.angle
        return .none
    }

    public mutating func touchesMoved(_ moved: [Touch], at time: Instant) -> GestureDecision {
        touches.update(moved)
        location = touches.centroid
        guard let angle = touches.angle else { return .none }
        let delta = lastAngle.map { angleDifference(angle, $0) } ?? 0
        lastAngle = angle
        return turn(by: delta, at: VelocityTracker.sampleTime(of: moved, at: time))
    }

    private mutating func turn(by delta: Double, at time: Instant) -> GestureDecision {
        switch state {
        case let .tracking(turned):
            let total = turned + delta
            state = .tracking(turned: total)
            guard abs(total) >= threshold else { return .none }
            state = .rotating
            // From the fingers' initial line: the turn that began the rotation counts.
            rotation = total
            recentVelocity.reset()
            recentVelocity.add(Point(x: total, y: 0), at: time)
            return .begin(.rotated(radians: total, threshold: threshold))
        case .rotating:
            rotation += delta
            recentVelocity.addAndMeasure(Point(x: rotation, y: 0), at: time)
            return .change
        }
    }

    public mutating func touchesEnded(_ lifted: [Touch], at time: Instant) -> GestureDecision {
        touches.update(lifted)
        touches.remove(lifted)
        lastAngle = touches.angle
        if !touches.isEmpty { location = touches.centroid }
        // Rotation ends when the last finger lifts; with one left it stays, and a finger put
        // back carries it on: the angle is measured afresh (lastAngle), the rotation continuous.
        if isActive {
            guard touches.isEmpty else { return .none }
            recentVelocity.measure(at: VelocityTracker.sampleTime(of: lifted, at: time))
            return .end(.touchesEnded)
        }
        return touches.isEmpty ? .fail(.touchesLiftedWithoutGesture) : .none
    }

    public static func understands(_ kind: TouchpadGestureEvent.Kind) -> Bool { kind == .pinch }

    /// A touchpad pinch's angle changes turn the rotation too.
    public mutating func touchpadGesture(_ event: TouchpadGestureEvent) -> GestureDecision {
        location = event.location
        let delta = event.angleDelta * Double.pi / 180
        switch event.phase {
        case .begin:
            if !isActive { state = .tracking(turned: delta) }
            return .none
        case .update:
            return turn(by: delta, at: event.time)
        case .end:
            return isActive ? .end(.touchpadGesture(.pinch, .end)) : .fail(.touchpadGesture(.pinch, .end))
        case .cancel:
            return isActive ? .cancel(.touchpadGesture(.pinch, .cancel)) : .fail(.touchpadGesture(.pinch, .cancel))
        }
    }

    /// UIKit's settable `rotation` (the `rotation.rotation = 0` idiom): the rotation is
    /// `newRotation` now and turns from there. The velocity starts afresh.
    public mutating func setRotation(_ newRotation: Double) {
        guard newRotation.isFinite else { return }
        rotation = newRotation
        recentVelocity.removeAll()
    }

    public mutating func reset() {
        touches.removeAll()
        state = .tracking(turned: 0)
        lastAngle = nil
        rotation = 0
        recentVelocity.reset()
    }
}

/// UIKit's `UIRotationGestureRecognizer`: continuous. See `RotationStateMachine`.
open class RotationGestureRecognizer: StateMachineGestureRecognizer<RotationStateMachine> {
    /// Radians from the line between the fingers where they came down, clockwise positive. Settable, as UIKit's: an action that
    /// applies the rotation and sets it back to 0 then sees each change's own angle.
    public var rotation: Double {
        get { machine.rotation }
        set { machine.setRotation(newValue) }
    }
    /// Radians per second.
    public var velocity: Double { machine.velocity }
    /// How far the first two touches must turn before the rotation begins, in radians.
    public var threshold: Double {
        get { machine.threshold }
        set { machine.threshold = newValue }
    }

    package override class var builtInClass: GestureRecognizer.Type { RotationGestureRecognizer.self }

    public convenience init(name: String? = nil, action: ((RotationGestureRecognizer) -> Void)? = nil) {
        self.init(name: name)
        if let action { addTarget(action) }
    }
}
