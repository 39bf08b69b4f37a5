/// What a recognizer decides about the input it was just given. Recognizers are state
/// machines whose methods return decisions; the engine's arbitration (Arbiter.swift) weighs them against the
/// other recognizers (failure requirements, exclusivity, the delegate) and makes the
/// transitions. Each case means one thing:
///
/// | decision | from | to |
/// |---|---|---|
/// | `begin` | `possible` (continuous) | `began` |
/// | `change` | `began`, `changed` | `changed` |
/// | `end` | `began`, `changed` | `ended` |
/// | `recognize` | `possible` (discrete) | `ended` |
/// | `fail` | `possible` | `failed` |
/// | `cancel` | `began`, `changed` | `cancelled` |
///
/// A continuous recognizer's `begin` may have to wait for a recognizer it requires to fail;
/// if it decides `end` meanwhile, it begins and ends at once when it is released. A decision
/// that does not apply in the recognizer's state (a `change` while possible, anything once it
/// has ended, failed or been cancelled) does nothing; a `fail` of a begun recognizer cancels
/// it, and a `cancel` of one still possible fails it.
public enum GestureDecision: Hashable, Sendable {
    /// Nothing to report.
    case none
    /// Continuous: the gesture has started (`possible → began`).
    case begin(TransitionReason)
    /// Continuous: the gesture's values changed (`began`/`changed` → `changed`).
    case change
    /// Continuous: the gesture is over (`began`/`changed` → `ended`).
    case end(TransitionReason)
    /// Discrete: the gesture happened (`possible → ended`).
    case recognize(TransitionReason)
    /// The input is not this gesture (`possible → failed`).
    case fail(TransitionReason)
    /// A begun gesture was interrupted (`began`/`changed` → `cancelled`).
    case cancel(TransitionReason)
}

extension GestureDecision {
    /// The same decision with another reason (`change` has none).
    func because(_ reason: TransitionReason) -> GestureDecision {
        switch self {
        case .none, .change: self
        case .begin: .begin(reason)
        case .end: .end(reason)
        case .recognize: .recognize(reason)
        case .fail: .fail(reason)
        case .cancel: .cancel(reason)
        }
    }

    /// What a decision does to a recognizer, by its state: the arbiter's first table
    /// (Arbiter.swift), and the one place it is written in code.
    enum Effect: Hashable {
        /// Nothing (a decision that does not apply in the state, or any decision in a final one).
        case none
        /// Leave `possible`, weighed against the others (the request table).
        case request(RecognizerRecord.PendingTransition)
        /// `began`/`changed` → `changed`, actions.
        case change
        /// `began`/`changed` → `ended`, actions, reset.
        case end(TransitionReason)
        /// `possible` → `failed`, reset.
        case fail(TransitionReason)
        /// `began`/`changed` → `cancelled`, actions, reset.
        case cancel(TransitionReason)

        /// The state the effect leads to in one transition; nil for none, and for a request
        /// that begins and ends at once.
        var target: GestureRecognizer.State? {
            switch self {
            case .none, .request(.beginThenEnd): nil
            case .request(.begin): .began
            case .request(.recognize), .end: .ended
            case .change: .changed
            case .fail: .failed
            case .cancel: .cancelled
            }
        }
    }

    /// What this decision does to a recognizer of `kind` in `state`.
    func effect(in state: GestureRecognizer.State, kind: GestureRecognizer.Kind) -> Effect {
        if state.isPossible {
            switch self {
            case .none, .change: return .none
            case let .begin(reason): return .request(kind == .discrete ? .recognize(reason) : .begin(reason))
            case let .recognize(reason), let .end(reason):
                return .request(kind == .discrete ? .recognize(reason) : .beginThenEnd(reason))
            case let .fail(reason), let .cancel(reason): return .fail(reason)
            }
        }
        if state.isActive {
            switch self {
            case .none, .begin: return .none
            case .change: return .change
            case let .recognize(reason), let .end(reason): return .end(reason)
            case let .fail(reason), let .cancel(reason): return .cancel(reason)
            }
        }
        return .none
    }

    /// The decision a recognizer's own `state = …` stands for: the one whose effect from
    /// `from` leads to `state` in one transition (so `possible → ended` is refused for a
    /// continuous recognizer, which would begin and end at once); nil if none does.
    static func settingState(_ state: GestureRecognizer.State, from: GestureRecognizer.State,
                             kind: GestureRecognizer.Kind) -> GestureDecision? {
        let reason = TransitionReason.stateSet(state)
        for decision in [GestureDecision.recognize(reason), .begin(reason), .change, .end(reason),
                         .fail(reason), .cancel(reason)]
            where decision.effect(in: from, kind: kind).target == state {
            return decision
        }
        return nil
    }
}

/// The values a continuous recognizer reports with each transition (and the replay tool
/// prints): those a kind does not have are nil.
public struct GestureValues: Hashable, Sendable {
    /// Pinch: the span relative to the span at `began` (1 at began).
    public var scale: Double?
    /// Pinch: scale per second. Rotation: radians per second.
    public var velocity: Double?
    /// Rotation: radians since `began`, clockwise positive (y grows downwards).
    public var rotation: Double?
    /// Pan: movement of the touches' centroid since `began`, in points.
    public var translation: Point?
    /// Pan: points per second.
    public var velocityVector: Point?

    public init(scale: Double? = nil, velocity: Double? = nil, rotation: Double? = nil,
                translation: Point? = nil, velocityVector: Point? = nil) {
        self.scale = scale
        self.velocity = velocity
        self.rotation = rotation
        self.translation = translation
        self.velocityVector = velocityVector
    }

    public static let none = GestureValues()

    /// One value, as every printout names and writes it.
    package struct Field {
        package enum Value {
            case number(Double)
            case pair(Point)
        }
        /// Its name in a replay's JSON and in every text.
        package var key: StaticString
        package var value: Value
        /// Its unit after the number in a replay's text ("/s"), and in a trace's line.
        package var unit: String
        package var traceUnit: String
    }

    /// The values there are, in the order every printout gives them (a trace's line, a
    /// replay's JSON and text): the one list of them, so a new value is its field above and
    /// its entry here.
    @inline(__always)
    package func forEachField(_ body: (Field) -> Void) {
        if let scale { body(Field(key: "scale", value: .number(scale), unit: "", traceUnit: "")) }
        if let rotation { body(Field(key: "rotation", value: .number(rotation), unit: " rad", traceUnit: " rad")) }
        if let translation { body(Field(key: "translation", value: .pair(translation), unit: "", traceUnit: "")) }
        if let velocity { body(Field(key: "velocity", value: .number(velocity), unit: "/s", traceUnit: "")) }
        if let velocityVector { body(Field(key: "velocity", value: .pair(velocityVector), unit: " pt/s", traceUnit: "")) }
    }
}
