/// A recognizer's logic as a value type: its methods take touches (or a deadline, or a
/// touchpad gesture) and return what the recognizer decides (`GestureDecision`), as
/// swift-nio's state machines return actions. It never reads a clock and never sees another
/// recognizer: time arrives with the input, timers are the `deadline` it asks for, and the
/// engine's arbiter weighs its decisions against the others'.
///
/// The built-in recognizers are these machines wrapped in `StateMachineGestureRecognizer`;
/// each machine can be driven and tested on its own.
public protocol GestureStateMachine: Sendable {
    /// Discrete (one `recognize`) or continuous (`begin`, `change`*, `end`).
    static var kind: GestureRecognizer.Kind { get }
    /// The prefix of a recognizer's default name ("tap").
    static var namePrefix: String { get }

    mutating func touchesBegan(_ touches: [Touch], at time: Instant) -> GestureDecision
    mutating func touchesMoved(_ touches: [Touch], at time: Instant) -> GestureDecision
    mutating func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision
    /// The default fails, or cancels a gesture that has begun.
    mutating func touchesCancelled(_ touches: [Touch], at time: Instant) -> GestureDecision
    /// The moment the machine wants to be woken, if any. The default is none.
    var deadline: Instant? { get }
    /// `deadline` has come. The default does nothing.
    mutating func deadlineReached(at time: Instant) -> GestureDecision
    /// Whether the machine takes touchpad gestures of this kind. The default takes none.
    static func understands(_ kind: TouchpadGestureEvent.Kind) -> Bool
    /// Whether this machine, as it is set up, takes touchpad gestures (and scroll sequences)
    /// of this kind. The default is `understands(_:)`.
    func accepts(_ kind: TouchpadGestureEvent.Kind) -> Bool
    mutating func touchpadGesture(_ event: TouchpadGestureEvent) -> GestureDecision
    /// Starts afresh; called after every final state.
    mutating func reset()
    /// The gesture's location in screen points.
    var location: Point { get }
    /// Whether the gesture has begun (continuous machines).
    var isActive: Bool { get }
    /// The values of a continuous gesture. The default has none.
    var values: GestureValues { get }
}

extension GestureStateMachine {
    public mutating func touchesCancelled(_ touches: [Touch], at time: Instant) -> GestureDecision {
        isActive ? .cancel(.touchesCancelled) : .fail(.touchesCancelled)
    }
    public var deadline: Instant? { nil }
    public mutating func deadlineReached(at time: Instant) -> GestureDecision { .none }
    public static func understands(_ kind: TouchpadGestureEvent.Kind) -> Bool { false }
    public func accepts(_ kind: TouchpadGestureEvent.Kind) -> Bool { Self.understands(kind) }
    public mutating func touchpadGesture(_ event: TouchpadGestureEvent) -> GestureDecision { .none }
    public var isActive: Bool { false }
    public var values: GestureValues { .none }
}

/// A recognizer that is its state machine: every call the engine makes goes to `machine`.
/// The built-in recognizers (`TapGestureRecognizer`, …) are this class with their machine's
/// parameters as public properties.
public class StateMachineGestureRecognizer<Machine: GestureStateMachine>: GestureRecognizer, BuiltInRecognizer {
    /// The recognizer's one property Swift does not check for exclusive access at run time.
    /// Needed by Benchmarks/Sources/profile-dispatch under callgrind: with the checks, a frame
    /// takes 3,841 instructions instead of 3,568 (two touches, eight recognizers panning) and
    /// 72,221 instead of 56,933 (64 recognizers undecided). Sound because the machine's
    /// methods are value code that never reaches back into the recognizer: each access ends
    /// before any other code runs.
    @exclusivity(unchecked) var machine: Machine

    init(_ machine: Machine, name: String?) {
        self.machine = machine
        super.init(name: name)
    }

    public final override class var defaultNamePrefix: String { Machine.namePrefix }
    public final override var kind: Kind { Machine.kind }

    /// Not final: a recognizer may look at its surroundings (the screen edge pan reads its
    /// window and the device's scale) before its machine sees the touches.
    public override func touchesBegan(_ touches: [Touch], at time: Instant) -> GestureDecision {
        machine.touchesBegan(touches, at: time)
    }
    public final override func touchesMoved(_ touches: [Touch], at time: Instant) -> GestureDecision {
        machine.touchesMoved(touches, at: time)
    }
    public final override func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision {
        machine.touchesEnded(touches, at: time)
    }
    public final override func touchesCancelled(_ touches: [Touch], at time: Instant) -> GestureDecision {
        machine.touchesCancelled(touches, at: time)
    }
    public final override var deadline: Instant? { inPlace { $0.deadline } }
    public final override func deadlineReached(at time: Instant) -> GestureDecision {
        machine.deadlineReached(at: time)
    }
    public final override func understands(_ kind: TouchpadGestureEvent.Kind) -> Bool {
        inPlace { $0.accepts(kind) }
    }
    public final override func touchpadGesture(_ event: TouchpadGestureEvent) -> GestureDecision {
        machine.touchpadGesture(event)
    }
    public final override func reset() { machine.reset() }
    public final override var screenLocation: Point { inPlace { $0.location } }
    public final override var values: GestureValues { inPlace { $0.values } }

    /// Reads the machine where it is stored: a getter called on the stored property itself
    /// would first copy the whole machine (this class's methods are not specialized for
    /// each machine), and the copy's reference counting was most of the deadline's cost.
    @inline(__always)
    private func inPlace<T>(_ body: (inout Machine) -> T) -> T {
        body(&machine)
    }
}
