import GestureFormat

/// Why a recognizer changed state: the answer to "why did my tap fail?". Every transition
/// the engine makes carries one; it is printed by the replay tool and logged at debug
/// level. Building a reason allocates nothing; its text is made only when it is printed.
public enum TransitionReason: Hashable, Sendable, CustomStringConvertible {
    // Recognition
    case tapsCompleted(taps: Int, touches: Int)
    case pressDurationReached(held: Duration, touches: Int)
    case spanChanged(points: Double, threshold: Double)
    case rotated(radians: Double, threshold: Double)
    case panned(points: Double, threshold: Double)
    case swiped(points: Double, direction: SwipeDirection)
    case touchesMoved
    case touchesEnded
    case touchpadGesture(TouchpadGestureEvent.Kind, TouchpadGestureEvent.Phase)
    /// A scroll sequence (a touchpad's scroll, a wheel) began, ended or was cancelled.
    case scrolled(TouchpadGestureEvent.Kind, TouchpadGestureEvent.Phase)
    case pointerEntered
    case pointerLeft
    /// A hover's pointer moved within its view.
    case pointerMoved
    /// A hover's pen moved within its view.
    case penMoved
    case pointerButtonPressed
    /// The pen a hover followed left proximity.
    case penLeftProximity
    /// A hovering pen touched down.
    case penTouchedDown
    // Failure of the gesture itself
    case movedTooFar(points: Double, allowed: Double)
    case heldTooLong(held: Duration, allowed: Duration)
    case tapIntervalExpired(allowed: Duration)
    case tapTooFarFromFirst(points: Double, allowed: Double)
    case tooManyTouches(count: Int, allowed: Int)
    case tooFewTouches(count: Int, required: Int)
    case liftedBeforeDuration(held: Duration, required: Duration)
    case swipeTooSlow(took: Duration, allowed: Duration)
    case swipeWrongDirection(moved: SwipeDirection)
    /// A pan moved `points` along an axis it does not allow (`PanGestureRecognizer.allowedDirections`).
    case panWrongDirection(points: Double, moved: PanDirections, allowed: PanDirections)
    case touchesLiftedWithoutGesture
    /// A screen edge pan's first touch began `distance` from the nearest of its edges, beyond
    /// the margin (both in millimetres when `millimetres`, in points otherwise).
    case notAtScreenEdge(distance: Double, margin: Double, millimetres: Bool)
    case touchesCancelled
    // Arbitration
    case waitingForFailure(of: String)
    case requiredRecognizerFailed(String)
    case requiredRecognizerSucceeded(String)
    case preventedBy(String)
    case excludedBy(String)
    case delegateDeclinedBegin
    /// The recognizer's view's `gestureRecognizerShouldBegin(_:)` said no.
    case viewDeclinedBegin
    /// A recognizer of the app's own set its `state` (UIKit's way of writing one).
    case stateSet(GestureRecognizer.State)
    // Outside events
    case disabled
    case removedFromView
    case deviceRemoved(InputDeviceID)
    case inputEnded
    case custom(String)
    /// A measurement weighed against a limit, in the recognizer's own words: how a kind with
    /// reasons of its own (one of yours, or a new built-in) states them in its own file,
    /// without a case here. Stored out of line, so that every reason (and every decision a
    /// recognizer returns, which carries one) stays as small as the built-in cases make it.
    indirect case measured(Measure)

    /// What `measured` says: "`what` `value` `unit` > `limit name` `limit` `unit`"
    /// ("down stroke 12 pt < minimum 20 pt").
    public struct Measure: Hashable, Sendable {
        /// What was measured ("down stroke").
        public var what: String
        public var value: Double
        /// Whether the value was past the limit (>) rather than short of it (<).
        public var exceeded: Bool
        /// The limit's name ("minimum").
        public var limitName: String
        public var limit: Double
        /// The unit of both ("pt", "s", "rad"); empty for a count.
        public var unit: String

        public init(_ what: String, _ value: Double, exceeded: Bool, _ limitName: String, _ limit: Double,
                    unit: String = "") {
            self.what = what
            self.value = value
            self.exceeded = exceeded
            self.limitName = limitName
            self.limit = limit
            self.unit = unit
        }
    }

    public var description: String {
        switch self {
        case let .tapsCompleted(taps, touches):
            return "\(taps) tap\(taps == 1 ? "" : "s") of \(touches) touch\(touches == 1 ? "" : "es") completed"
        case let .pressDurationReached(s, touches):
            return "\(touches) touch\(touches == 1 ? "" : "es") held \(fmt(s.inSeconds)) s"
        case let .spanChanged(p, t): return "span changed \(fmt(p)) pt > \(fmt(t)) pt"
        case let .rotated(r, t): return "rotated \(fmt(r)) rad > \(fmt(t)) rad"
        case let .panned(p, t): return "moved \(fmt(p)) pt > threshold \(fmt(t)) pt"
        case let .swiped(p, d): return "swiped \(fmt(p)) pt \(d)"
        case .touchesMoved: return "touches moved"
        case .touchesEnded: return "touches lifted"
        case let .touchpadGesture(kind, phase): return "touchpad \(kind) \(phase)"
        case let .scrolled(kind, phase):
            return "\(kind == .wheel ? "wheel" : "touchpad") scroll \(phase == .end ? "stopped" : phase == .begin ? "began" : "\(phase)")"
        case .pointerEntered: return "pointer entered the view"
        case .pointerLeft: return "pointer left the view"
        case .pointerMoved: return "pointer moved"
        case .penMoved: return "pen moved"
        case .pointerButtonPressed: return "a button was pressed"
        case .penLeftProximity: return "the pen left proximity"
        case .penTouchedDown: return "the pen touched down"
        case let .movedTooFar(p, a): return "moved \(fmt(p)) pt > allowable \(fmt(a)) pt"
        case let .heldTooLong(s, a): return "held \(fmt(s.inSeconds)) s > maximum tap duration \(fmt(a.inSeconds)) s"
        case let .tapIntervalExpired(a): return "no next tap within \(fmt(a.inSeconds)) s"
        case let .tapTooFarFromFirst(p, a): return "tap landed \(fmt(p)) pt from the first > \(fmt(a)) pt"
        case let .tooManyTouches(c, a): return "\(c) touches > \(a) allowed"
        case let .tooFewTouches(c, r): return "\(c) touch\(c == 1 ? "" : "es") < \(r) required"
        case let .liftedBeforeDuration(s, r): return "lifted after \(fmt(s.inSeconds)) s < minimum press duration \(fmt(r.inSeconds)) s"
        case let .swipeTooSlow(s, a): return "swipe took \(fmt(s.inSeconds)) s > \(fmt(a.inSeconds)) s"
        case let .swipeWrongDirection(d): return "moved \(d), not an allowed direction"
        case let .panWrongDirection(p, moved, allowed):
            return "moved \(fmt(p)) pt \(moved == .vertical ? "vertically" : "horizontally"); allowed \(allowed)"
        case .touchesLiftedWithoutGesture: return "touches lifted without a gesture"
        case let .notAtScreenEdge(d, m, mm):
            let unit = mm ? "mm" : "pt"
            return "began \(fmt(d)) \(unit) from the nearest edge > margin \(fmt(m)) \(unit)"
        case .touchesCancelled: return "touches cancelled"
        case let .waitingForFailure(name): return "waiting for \(name) to fail"
        case let .requiredRecognizerFailed(name): return "\(name) failed"
        case let .requiredRecognizerSucceeded(name): return "\(name) recognized first"
        case let .preventedBy(name): return "prevented by \(name), which has begun"
        case let .excludedBy(name): return "\(name) recognized and they are not simultaneous"
        case .delegateDeclinedBegin: return "delegate's shouldBegin said no"
        case .viewDeclinedBegin: return "its view's gestureRecognizerShouldBegin said no"
        case let .stateSet(s): return "the recognizer set its state to \(s.rawValue)"
        case .disabled: return "disabled"
        case .removedFromView: return "removed from its view"
        case let .deviceRemoved(id): return "\(id) removed"
        case .inputEnded: return "input ended with touches down"
        case let .custom(text): return text
        case let .measured(m):
            let unit = m.unit.isEmpty ? "" : " \(m.unit)"
            return "\(m.what) \(fmt(m.value))\(unit) \(m.exceeded ? ">" : "<") \(m.limitName) \(fmt(m.limit))\(unit)"
        }
    }
}

/// Formats a measurement for a reason: at most three decimals, no trailing zeros.
func fmt(_ value: Double) -> String { DecimalText.trimmed(value, digits: 3) }
