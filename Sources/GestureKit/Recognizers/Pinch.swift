/// The pinch state machine. Two or more touches; the span is the touches' mean distance
/// from their centroid (so a five-finger pinch is a pinch). It begins when the span has
/// changed by `spanThreshold` points, unless the touches travelled together more than they
/// spread (`minimumSpanToTravelRatio`): then it was a pan, and the pinch measures afresh from
/// there. `scale` is the span relative to the span at `began` (1 at began), kept continuous
/// when touches join or leave; `velocity` is scale per second.
public struct PinchRecognition: Sendable {
    /// Points the span must change before the pinch begins.
    public var spanThreshold = GestureDefaults.pinchSpanThresholdPoints
    /// The least span change per point of centroid travel for the change to count as a pinch.
    public var minimumSpanToTravelRatio = GestureDefaults.pinchMinimumSpanToTravelRatio

    private var touches = TrackedTouches()
    private(set) var isActive = false
    private var spanAtStart = 0.0
    private var centroidAtStart = Point.zero
    private var referenceSpan = 0.0
    private var referenceScale = 1.0
    private var lastTime = Instant.zero
    public private(set) var scale = 1.0
    public private(set) var velocity = 0.0
    public private(set) var location = Point.zero
    /// A touchpad pinch under way (libinput reports the scale itself).
    private var touchpad = false

    public init() {}

    /// Re-measures the span after the set of touches changed, so the scale does not jump.
    private mutating func rebase() {
        if isActive {
            referenceScale = scale
            referenceSpan = touches.span
        } else {
            spanAtStart = touches.span
            centroidAtStart = touches.centroid
        }
    }

    public mutating func began(_ new: [Touch], at time: Instant) -> GestureDecision {
        for t in new { touches.add(t) }
        location = touches.centroid
        rebase()
        return .none
    }

    public mutating func moved(_ moved: [Touch], at time: Instant) -> GestureDecision {
        touches.update(moved)
        location = touches.centroid
        guard touches.count >= 2 else { return .none }
        let span = touches.span
        if !isActive {
            let change = abs(span - spanAtStart)
            let threshold = spanThreshold * touches.distanceScale
            guard change >= threshold, span > 0 else { return .none }
            let travel = location.distance(to: centroidAtStart)
            if change < travel * minimumSpanToTravelRatio {
                // The fingers moved together: a pan so far. Measure afresh from here.
                spanAtStart = span
                centroidAtStart = location
                return .none
            }
            isActive = true
            referenceSpan = span
            referenceScale = 1
            scale = 1
            velocity = 0
            lastTime = time
            return .begin(.spanChanged(points: change, threshold: threshold))
        }
        guard referenceSpan > 0 else { return .none }
        update(scale: referenceScale * span / referenceSpan, at: time)
        return .change
    }

    private mutating func update(scale newScale: Double, at time: Instant) {
        let dt = time.seconds(since: lastTime)
        if dt > 0 { velocity = (newScale - scale) / dt }
        scale = newScale
        lastTime = time
    }

    public mutating func ended(_ lifted: [Touch], at time: Instant) -> GestureDecision {
        touches.update(lifted)
        touches.remove(lifted)
        if isActive {
            if touches.count < 2 { return .recognize(.touchesEnded) }
            rebase()
            location = touches.centroid
            return .none
        }
        rebase()
        if !touches.isEmpty { location = touches.centroid }
        return touches.isEmpty ? .fail(.touchesLiftedWithoutGesture) : .none
    }

    /// A touchpad pinch (libinput's GESTURE_PINCH): begins at once with libinput's scale.
    public mutating func touchpadPinch(_ event: TouchpadGestureEvent) -> GestureDecision {
        location = event.location
        switch event.phase {
        case .begin:
            touchpad = true
            isActive = true
            scale = 1
            velocity = 0
            referenceScale = event.scale > 0 ? event.scale : 1
            lastTime = event.time
            return .begin(.touchpadGesture(.pinch, .begin))
        case .update:
            guard isActive else { return .none }
            update(scale: event.scale / referenceScale, at: event.time)
            return .change
        case .end:
            return isActive ? .recognize(.touchpadGesture(.pinch, .end)) : .fail(.touchpadGesture(.pinch, .end))
        case .cancel:
            return .cancel(.touchpadGesture(.pinch, .cancel))
        }
    }

    public mutating func reset() {
        touches.removeAll()
        isActive = false
        touchpad = false
        spanAtStart = 0
        referenceSpan = 0
        referenceScale = 1
        scale = 1
        velocity = 0
    }
}

/// UIKit's `UIPinchGestureRecognizer`: continuous. See `PinchRecognition`.
public final class PinchGestureRecognizer: GestureRecognizer {
    public var machine = PinchRecognition()

    /// The span relative to the span at `began` (1 at began).
    public var scale: Double { machine.scale }
    /// Scale per second.
    public var velocity: Double { machine.velocity }

    public init(name: String? = nil, action: ((PinchGestureRecognizer) -> Void)? = nil) {
        super.init(name: name)
        if let action { addTarget { action($0 as! PinchGestureRecognizer) } }
    }

    public override class var defaultNamePrefix: String { "pinch" }
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
        GestureValues(scale: machine.scale, velocity: machine.velocity)
    }
}
