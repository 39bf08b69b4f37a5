/// What a recognizer decides about the input it was just given. Recognizers are state
/// machines whose methods return decisions; the engine's `Arbiter` weighs them against the
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
/// if it decides `end` meanwhile, it begins and ends at once when it is released. The
/// arbiter's table (Arbiter.swift) says what each decision does in every state.
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
}
