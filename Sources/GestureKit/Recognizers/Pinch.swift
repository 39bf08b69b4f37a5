/// The pinch state machine. Two or more touches; the span is the touches' mean distance
/// from their centroid (so a five-finger pinch is a pinch). It begins when the span has
/// changed by `spanThreshold` points, unless the touches travelled together more than they
/// spread (`minimumSpanToTravelRatio`): then it was a pan, and the pinch measures afresh from
/// there. `scale` is the span relative to the span at `began` (1 at began), kept continuous
/// when touches join or leave; `velocity` is scale per second, of recent
/// motion (`VelocityTracker`). It ends when the last finger
/// lifts: with one finger left it stays `changed`, reporting nothing new, and a finger put
/// back carries it on from the scale it had. A touchpad pinch (libinput's
/// GESTURE_PINCH) begins at once and takes libinput's scale.
public struct PinchStateMachine: GestureStateMachine {
    public static let kind = GestureRecognizer.Kind.continuous
    public static let namePrefix = "pinch"

    /// How much the span must change before the pinch begins, in points.
    public var spanThreshold = GestureDefaults.pinchSpanThresholdPoints
    /// The least span change per point of centroid travel for the change to count as a pinch.
    public var minimumSpanToTravelRatio = GestureDefaults.pinchMinimumSpanToTravelRatio

    enum State: Sendable {
        /// Not begun: the span and centroid the change is measured from.
        case tracking(spanAtStart: Double, centroidAtStart: Point)
        /// Begun on touches: `scale = referenceScale × span / referenceSpan`, re-measured
        /// whenever touches join or leave.
        case pinching(referenceSpan: Double, referenceScale: Double)
        /// Begun on a touchpad: `scale = libinput's scale / scaleAtBegin`.
        case touchpadPinching(scaleAtBegin: Double)
    }

    private(set) var state = State.tracking(spanAtStart: 0, centroidAtStart: .zero)
    private var touches = TrackedTouches()
    public private(set) var scale = 1.0
    /// Scale per second, of recent scales; fitted when read (`LazyVelocity`).
    public var velocity: Double { recentVelocity.value.x }
    public private(set) var location = Point.zero
    /// Recent scales, for the velocity (x is the scale).
    private var recentVelocity = LazyVelocity()

    public init() {}

    public var isActive: Bool {
        if case .tracking = state { false } else { true }
    }

    public var values: GestureValues { GestureValues(scale: scale, velocity: velocity) }

    /// Re-measures after the set of touches changed, so the scale does not jump (with one
    /// touch there is no span: the reference waits for a second one).
    private mutating func remeasure() {
        switch state {
        case .tracking:
            state = .tracking(spanAtStart: touches.span, centroidAtStart: touches.centroid)
        case .pinching:
            state = .pinching(referenceSpan: touches.count >= 2 ? touches.span : 0, referenceScale: scale)
        case .touchpadPinching:
            break
        }
    }

    public mutating func touchesBegan(_ new: [Touch], at time: Instant) -> GestureDecision {
        for t in new { touches.add(t) }
        location = touches.centroid
        remeasure()
        return .none
    }

    public mutating func touchesMoved(_ moved: [Touch], at engineTime: Instant) -> GestureDecision {
        touches.update(moved)
        location = touches.centroid
        guard touches.count >= 2 else { return .none }
        let time = VelocityTracker.sampleTime(of: moved, at: engineTime)
        let span = touches.span
        switch state {
        case let .tracking(spanAtStart, centroidAtStart):
            let change = abs(span - spanAtStart)
            let threshold = spanThreshold * touches.distanceScale
            guard change >= threshold, span > 0 else { return .none }
            let travel = location.distance(to: centroidAtStart)
            if change < travel * minimumSpanToTravelRatio {
                // The fingers moved together: a pan so far. Measure afresh from here.
                state = .tracking(spanAtStart: span, centroidAtStart: location)
                return .none
            }
            state = .pinching(referenceSpan: span, referenceScale: 1)
            scale = 1
            recentVelocity.reset()
            recentVelocity.add(Point(x: 1, y: 0), at: time)
            return .begin(.spanChanged(points: change, threshold: threshold))
        case let .pinching(referenceSpan, referenceScale):
            guard referenceSpan > 0 else { return .none }
            update(scale: referenceScale * span / referenceSpan, at: time)
            return .change
        case .touchpadPinching:
            return .none
        }
    }

    /// The new scale, and the velocity of recent scales (`VelocityTracker`).
    private mutating func update(scale newScale: Double, at time: Instant) {
        recentVelocity.addAndMeasure(Point(x: newScale, y: 0), at: time)
        scale = newScale
    }

    public mutating func touchesEnded(_ lifted: [Touch], at time: Instant) -> GestureDecision {
        touches.update(lifted)
        touches.remove(lifted)
        if isActive {
            // The pinch ends when the last finger lifts; with one left it stays (reporting
            // nothing new) and a finger put back carries on from the scale it had.
            if touches.isEmpty {
                recentVelocity.measure(at: VelocityTracker.sampleTime(of: lifted, at: time))
                return .end(.touchesEnded)
            }
            remeasure()
            location = touches.centroid
            return .none
        }
        remeasure()
        if !touches.isEmpty { location = touches.centroid }
        return touches.isEmpty ? .fail(.touchesLiftedWithoutGesture) : .none
    }

    public static func understands(_ kind: TouchpadGestureEvent.Kind) -> Bool { kind == .pinch }

    /// A touchpad pinch (libinput's GESTURE_PINCH): begins at once with libinput's scale.
    public mutating func touchpadGesture(_ event: TouchpadGestureEvent) -> GestureDecision {
        location = event.location
        switch event.phase {
        case .begin:
            state = .touchpadPinching(scaleAtBegin: event.scale > 0 ? event.scale : 1)
            scale = 1
            recentVelocity.reset()
            recentVelocity.add(Point(x: 1, y: 0), at: event.time)
            return .begin(.touchpadGesture(.pinch, .begin))
        case .update:
            switch state {
            case let .touchpadPinching(scaleAtBegin):
                update(scale: event.scale / scaleAtBegin, at: event.time)
                return .change
            case let .pinching(_, referenceScale):
                // Touches began the pinch; the touchpad's scale follows its own reference.
                update(scale: event.scale / referenceScale, at: event.time)
                return .change
            case .tracking:
                return .none
            }
        case .end:
            return isActive ? .end(.touchpadGesture(.pinch, .end)) : .fail(.touchpadGesture(.pinch, .end))
        case .cancel:
            return isActive ? .cancel(.touchpadGesture(.pinch, .cancel)) : .fail(.touchpadGesture(.pinch, .cancel))
        }
    }

    /// UIKit's settable `scale` (the `pinch.scale = 1` idiom): the scale is `newScale` now and
    /// changes from there with the span (or the touchpad's scale). The velocity starts afresh.
    public mutating func setScale(_ newScale: Double) {
        guard newScale.isFinite, newScale > 0 else { return }
        switch state {
        case .pinching:
            state = .pinching(referenceSpan: touches.count >= 2 ? touches.span : 0, referenceScale: newScale)
        case let .touchpadPinching(scaleAtBegin):
            // libinput's scale is now scaleAtBegin × scale: measure it against newScale.
            state = .touchpadPinching(scaleAtBegin: scaleAtBegin * scale / newScale)
        case .tracking:
            break
        }
        scale = newScale
        recentVelocity.removeAll()
    }

    public mutating func reset() {
        touches.removeAll()
        state = .tracking(spanAtStart: 0, centroidAtStart: .zero)
        scale = 1
        recentVelocity.reset()
    }
}

/// UIKit's `UIPinchGestureRecognizer`: continuous. See `PinchStateMachine`.
open class PinchGestureRecognizer: StateMachineGestureRecognizer<PinchStateMachine> {
    /// The span relative to the span at `began` (1 at began). Settable, as UIKit's: an action
    /// that applies the scale and sets it back to 1 then sees each change's own factor.
    public var scale: Double {
        get { machine.scale }
        set { machine.setScale(newValue) }
    }
    /// Scale per second.
    public var velocity: Double { machine.velocity }
    /// How much the span (the touches' mean distance from their centroid) must change
    /// before the pinch begins, in points.
    public var spanThreshold: Double {
        get { machine.spanThreshold }
        set { machine.spanThreshold = newValue }
    }
    /// The least change of span per point the touches' centroid travelled for a span change
    /// to begin a pinch (two fingers moving together are a pan, not a pinch).
    public var minimumSpanToTravelRatio: Double {
        get { machine.minimumSpanToTravelRatio }
        set { machine.minimumSpanToTravelRatio = newValue }
    }

    package override class var builtInClass: GestureRecognizer.Type { PinchGestureRecognizer.self }

    public convenience init(name: String? = nil, action: ((PinchGestureRecognizer) -> Void)? = nil) {
        self.init(name: name)
        if let action { addTarget(action) }
    }
}
