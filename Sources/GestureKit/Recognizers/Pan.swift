/// The directions a pan may begin in (`PanGestureRecognizer.allowedDirections`): UIKit has
/// none, Hammer.js has `direction`, Flutter has Horizontal/VerticalDragGestureRecognizer.
///
/// **The rule:** a pan whose movement, when it passes its threshold, is mainly along an axis
/// it does not allow fails (`TransitionReason.panWrongDirection`), so another recognizer — a
/// scroll view of the other direction around it — can take the touches. "Mainly" compares
/// the movement's two components: more horizontal than vertical is horizontal, and a perfect
/// diagonal is both. Once begun, a pan follows the touches in every direction.
public struct PanDirections: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Left and right.
    public static let horizontal = PanDirections(rawValue: 1 << 0)
    /// Up and down.
    public static let vertical = PanDirections(rawValue: 1 << 1)
    /// Every direction (the default, and UIKit's only behaviour).
    public static let all: PanDirections = [.horizontal, .vertical]

    /// The axes a movement is mainly along: horizontal, vertical, or both for a diagonal.
    public static func main(of delta: Point) -> PanDirections {
        let dx = abs(delta.x), dy = abs(delta.y)
        if dx > dy { return .horizontal }
        if dy > dx { return .vertical }
        return .all
    }

    /// "horizontal", "vertical", "all" (or "none").
    public var description: String {
        switch self {
        case .horizontal: "horizontal"
        case .vertical: "vertical"
        case .all: "all"
        default: "none"
        }
    }
}

/// The pan state machine. Follows the centroid of `minimumTouches`…`maximumTouches`
/// touches; `velocity` in points per second, of recent motion (`VelocityTracker`: zero once
/// the touches have stopped). A touchpad swipe (libinput's GESTURE_SWIPE) pans by its deltas.
///
/// **The rules** (UIPanGestureRecognizer's documentation):
/// - It begins when `minimumTouches` touches are down and their centroid has moved
///   `threshold` points since they were all down: movement one finger made alone before the
///   others landed does not count.
/// - `translation` is the distance from where its touches first came down ("the distance
///   from the original touch location"): at `began` it already holds the movement that began
///   it, so a view dragged by `initialCenter + translation` stays under the finger. It is
///   continuous when touches join or leave (the sum of the centroid's movements).
/// - It changes when a finger moves while at least `minimumTouches` are down, and ends when
///   the last finger lifts.
public struct PanStateMachine: GestureStateMachine {
    public static let kind = GestureRecognizer.Kind.continuous
    public static let namePrefix = "pan"

    public var minimumTouches = 1
    public var maximumTouches = Int.max
    /// How far the centroid must move before the pan begins, in points.
    public var threshold = GestureDefaults.panThresholdPoints
    /// The scroll sequences that drive this pan (UIKit's `allowedScrollTypesMask`): none by
    /// default. A scroll begins the pan at its first event (no threshold: the person meant
    /// to scroll), changes it at each, ends it when it stops.
    public var allowedScrollTypes: ScrollTypes = []
    /// The directions the pan may begin in (`PanDirections`): all by default.
    public var allowedDirections: PanDirections = .all
    /// The type of the scroll sequence driving the pan since `began` (`.continuous` for a
    /// touchpad, `.discrete` for a wheel); empty when touches drive it.
    public private(set) var scrollType: ScrollTypes = []

    enum State: Sendable {
        /// Not begun: how far the centroid has moved so far.
        case tracking(moved: Point)
        /// Begun.
        case panning
    }

    private(set) var state = State.tracking(moved: .zero)
    private var touches = TrackedTouches()
    /// The centroid at the last event, to measure the next one's movement from.
    private var lastCentroid = Point.zero
    public private(set) var translation = Point.zero
    /// Points per second, of recent motion; fitted when read (`LazyVelocity`).
    public var velocity: Point { recentVelocity.value }
    public private(set) var location = Point.zero
    /// Where the gesture is, as the sum of its movements (continuous when touches join or
    /// leave), and its recent samples for the velocity.
    private var position = Point.zero
    private var recentVelocity = LazyVelocity()

    public init() {}

    public var isActive: Bool {
        if case .panning = state { true } else { false }
    }

    public var values: GestureValues { GestureValues(translation: translation, velocityVector: velocity) }

    public mutating func touchesBegan(_ new: [Touch], at time: Instant) -> GestureDecision {
        for t in new { touches.add(t) }
        lastCentroid = touches.centroid
        location = lastCentroid
        if !isActive && touches.count > maximumTouches {
            return .fail(.tooManyTouches(count: touches.count, allowed: maximumTouches))
        }
        return .none
    }

    public mutating func touchesMoved(_ movedTouches: [Touch], at time: Instant) -> GestureDecision {
        touches.update(movedTouches)
        let c = touches.centroid
        let delta = c - lastCentroid
        lastCentroid = c
        location = c
        return move(by: delta, at: VelocityTracker.sampleTime(of: movedTouches, at: time))
    }

    private mutating func move(by delta: Point, at time: Instant) -> GestureDecision {
        position = position + delta
        switch state {
        case let .tracking(moved):
            // Movement made before `minimumTouches` fingers are down does not count.
            let counts = touches.count >= minimumTouches || touches.isEmpty
            let total = counts ? moved + delta : .zero
            state = .tracking(moved: total)
            let distance = total.distance(to: .zero)
            let scaled = threshold * touches.distanceScale
            guard distance >= scaled, touches.count >= minimumTouches || touches.isEmpty else {
                recentVelocity.add(position, at: time)
                return .none
            }
            if let wrong = wrongDirection(total) {
                recentVelocity.add(position, at: time)
                return .fail(wrong)
            }
            state = .panning
            // From the original touch location: the movement that began the pan counts.
            translation = total
            recentVelocity.addAndMeasure(position, at: time)
            return .begin(.panned(points: distance, threshold: scaled))
        case .panning:
            recentVelocity.addAndMeasure(position, at: time)
            // Fewer than `minimumTouches` fingers down: no change (the translation stays
            // continuous when they are back).
            guard touches.count >= minimumTouches || touches.isEmpty else { return .none }
            translation = translation + delta
            return .change
        }
    }

    /// Why a movement may not begin this pan, if it may not: mainly along an axis it does
    /// not allow (`PanDirections`).
    private func wrongDirection(_ movement: Point) -> TransitionReason? {
        guard allowedDirections != .all else { return nil }
        let main = PanDirections.main(of: movement)
        guard allowedDirections.isDisjoint(with: main) else { return nil }
        let along = main == .horizontal ? abs(movement.x) : abs(movement.y)
        return .panWrongDirection(points: along, moved: main, allowed: allowedDirections)
    }

    public mutating func touchesEnded(_ lifted: [Touch], at time: Instant) -> GestureDecision {
        touches.update(lifted)
        touches.remove(lifted)
        lastCentroid = touches.centroid
        if !touches.isEmpty { location = lastCentroid }
        if isActive {
            // It ends when the last finger lifts.
            guard touches.isEmpty else { return .none }
            // The velocity at the release: zero if the touches had stopped.
            recentVelocity.measure(at: VelocityTracker.sampleTime(of: lifted, at: time))
            return .end(.touchesEnded)
        }
        return touches.isEmpty ? .fail(.touchesLiftedWithoutGesture) : .none
    }

    public static func understands(_ kind: TouchpadGestureEvent.Kind) -> Bool { kind == .swipe }

    public func accepts(_ kind: TouchpadGestureEvent.Kind) -> Bool {
        switch kind {
        case .swipe: true
        case .scroll: allowedScrollTypes.contains(.continuous)
        case .wheel: allowedScrollTypes.contains(.discrete)
        case .pinch, .hold: false
        }
    }

    /// A scroll sequence: `translation` is the sum of its deltas (the first one's at began).
    private mutating func scroll(_ event: TouchpadGestureEvent) -> GestureDecision {
        switch event.phase {
        case .begin:
            if let wrong = wrongDirection(event.delta) { return .fail(wrong) }
            state = .panning
            translation = event.delta
            position = event.delta
            recentVelocity.reset()
            recentVelocity.add(position, at: event.time)
            scrollType = event.kind == .wheel ? .discrete : .continuous
            return .begin(.scrolled(event.kind, .begin))
        case .update:
            guard isActive else { return .none }
            return move(by: event.delta, at: event.time)
        case .end:
            guard isActive else { return .fail(.scrolled(event.kind, .end)) }
            // The velocity at the stop, as at a lift: zero if the scroll had stopped moving.
            recentVelocity.measure(at: event.time)
            return .end(.scrolled(event.kind, .end))
        case .cancel:
            return isActive ? .cancel(.scrolled(event.kind, .cancel)) : .fail(.scrolled(event.kind, .cancel))
        }
    }

    /// A touchpad swipe (libinput's GESTURE_SWIPE) pans by its deltas.
    public mutating func touchpadGesture(_ event: TouchpadGestureEvent) -> GestureDecision {
        location = event.location
        if event.kind.isScroll { return scroll(event) }
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
            return isActive ? .end(.touchpadGesture(.swipe, .end)) : .fail(.touchpadGesture(.swipe, .end))
        case .cancel:
            return isActive ? .cancel(.touchpadGesture(.swipe, .cancel)) : .fail(.touchpadGesture(.swipe, .cancel))
        }
    }

    /// UIKit's `setTranslation(_:in:)`: the translation is `newTranslation` now, and later
    /// movement adds to it (the velocity is unaffected).
    public mutating func setTranslation(_ newTranslation: Point) {
        guard newTranslation.x.isFinite, newTranslation.y.isFinite else { return }
        translation = newTranslation
    }

    public mutating func reset() {
        touches.removeAll()
        state = .tracking(moved: .zero)
        translation = .zero
        position = .zero
        recentVelocity.reset()
        scrollType = []
    }
}

/// UIKit's `UIPanGestureRecognizer`: continuous. See `PanStateMachine`.
open class PanGestureRecognizer: StateMachineGestureRecognizer<PanStateMachine> {
    public var minimumNumberOfTouches: Int {
        get { machine.minimumTouches }
        set { machine.minimumTouches = max(1, newValue) }
    }
    public var maximumNumberOfTouches: Int {
        get { machine.maximumTouches }
        set { machine.maximumTouches = max(1, newValue) }
    }
    /// How far the touches' centroid must move before the pan begins, in points.
    public var threshold: Double {
        get { machine.threshold }
        set { machine.threshold = newValue }
    }
    /// The scroll sequences that drive this pan (UIKit's `allowedScrollTypesMask`); none by default.
    public var allowedScrollTypes: ScrollTypes {
        get { machine.allowedScrollTypes }
        set { machine.allowedScrollTypes = newValue }
    }
    /// The directions the pan may begin in: `.all` (the default, UIKit's behaviour),
    /// `.horizontal` or `.vertical`. A pan whose movement past its threshold is mainly along
    /// an axis it does not allow fails, leaving the touches to another recognizer (a
    /// horizontal carousel inside a vertical list: each pan takes its own direction). The
    /// first delta of a scroll sequence is judged the same way. Once begun, the pan follows
    /// the touches in every direction.
    public var allowedDirections: PanDirections {
        get { machine.allowedDirections }
        set { machine.allowedDirections = newValue }
    }
    /// The type of the scroll sequence driving the pan since `began` (`.continuous`: a
    /// touchpad's two-finger scroll, `.discrete`: a wheel); empty when touches drive it.
    public var scrollType: ScrollTypes { machine.scrollType }
    /// Points moved since the touches came down (UIKit: "the distance from the original
    /// touch location"): at `began` it already holds the movement that began the pan.
    public var translation: Point { machine.translation }
    /// Points per second, of recent motion: a least-squares fit over the last 100 ms, zero
    /// once the touches have not moved for 40 ms (`VelocityTracker`).
    public var velocity: Point { machine.velocity }

    /// UIKit's `translation(in:)`: the movement since the touches came down, in `view`'s
    /// coordinates (screen coordinates for nil): a movement is a vector, so a scaled or
    /// turned view sees it scaled and turned back.
    public func translation(in view: View?) -> Point {
        view?.convertVectorFromScreen(machine.translation) ?? machine.translation
    }
    /// UIKit's `setTranslation(_:in:)`: the idiom of an action that applies the movement
    /// and starts counting again (`pan.setTranslation(.zero, in: view)`). `translation` is
    /// in `view`'s coordinates.
    public func setTranslation(_ translation: Point, in view: View?) {
        machine.setTranslation(view?.convertVectorToScreen(translation) ?? translation)
    }
    /// UIKit's `velocity(in:)`, in points per second of `view`'s coordinates (see
    /// `translation(in:)`).
    public func velocity(in view: View?) -> Point {
        view?.convertVectorFromScreen(machine.velocity) ?? machine.velocity
    }

    package override class var builtInClass: GestureRecognizer.Type { PanGestureRecognizer.self }

    public convenience init(minimumTouches: Int = 1, maximumTouches: Int = .max, name: String? = nil,
                action: ((PanGestureRecognizer) -> Void)? = nil) {
        self.init(name: name)
        minimumNumberOfTouches = minimumTouches
        maximumNumberOfTouches = maximumTouches
        if let action { addTarget(action) }
    }
}
