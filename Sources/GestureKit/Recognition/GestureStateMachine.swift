/// A recognizer's logic as a value type: its methods take touches (or a deadline, or a
/// touchpad gesture) and return what the recognizer decides (`GestureDecision`), as
/// swift-nio's state machines return actions. It never reads a clock and never sees another
/// recognizer: time arrives with the input, timers are the `deadline` it asks for, and the
/// engine's arbiter weighs its decisions against the others'.
///
/// The built-in recognizers are these machines wrapped in `StateMachineGestureRecognizer`;
/// each machine can be driven and tested on its own.
public protocol GestureStateMachine: Sendable {
    /// A machine with its defaults (UIKit's).
    init()
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
///
/// A built-in may be subclassed as UIKit's are: the subclass overrides UIKit's
/// `touchesBegan(_:with:)` (and `touchesMoved`, `touchesEnded`, `touchesCancelled`,
/// `reset()`) and calls `super`, which runs the machine; it may set `state` itself before or
/// after (`.failed` to fail the gesture). The decision-returning `touchesBegan(_:at:)`
/// family is final here, so no override can go around the UIKit-shaped methods. Only an
/// object of a subclass goes through them: the built-in classes themselves call the machine
/// directly, and pay nothing for the rule.
open class StateMachineGestureRecognizer<Machine: GestureStateMachine>: GestureRecognizer, BuiltInRecognizer {
    /// The recognizer's one property Swift does not check for exclusive access at run time.
    /// Needed by Benchmarks/Sources/profile-dispatch under callgrind: with the checks, a frame
    /// takes 3,841 instructions instead of 3,568 (two touches, eight recognizers panning) and
    /// 72,221 instead of 56,933 (64 recognizers undecided). Sound because the machine's
    /// methods are value code that never reaches back into the recognizer: each access ends
    /// before any other code runs.
    #if GESTUREKIT_CHECKED_ACCESS
    final var machine: Machine
    #else
    @exclusivity(unchecked) final var machine: Machine
    #endif

    /// Whether this object is of a subclass of its built-in class (an app's): then the
    /// engine's calls go through the UIKit-shaped methods, which a subclass overrides.
    final private(set) var isSubclassed = false
    /// The touches of the call under way, in the engine's order (before they became a
    /// `Set` for the UIKit-shaped methods): the machine sees them in that order.
    private var callOrder: [Touch] = []
    /// Whether the machine ran in the call under way (the subclass called `super`).
    private var machineRan = false

    /// A recognizer whose machine has its defaults (UIKit's). Every initializer of a built-in
    /// comes here, and so does `init(target:action:)`, which each class inherits.
    public override init(name: String? = nil) {
        machine = Machine()
        super.init(name: name)
        isSubclassed = ObjectIdentifier(type(of: self)) != ObjectIdentifier(type(of: self).builtInClass)
    }

    /// The class this machine's recognizer is built in as: an object of any other class is of
    /// a subclass of it (an app's). Each built-in names itself.
    package class var builtInClass: GestureRecognizer.Type { StateMachineGestureRecognizer<Machine>.self }

    public final override class var defaultNamePrefix: String { Machine.namePrefix }
    public final override var kind: Kind { Machine.kind }

    public final override func touchesBegan(_ touches: [Touch], at time: Instant) -> GestureDecision {
        isSubclassed ? throughUIKitMethods(.began, touches, at: time) : machineTouchesBegan(touches, at: time)
    }
    public final override func touchesMoved(_ touches: [Touch], at time: Instant) -> GestureDecision {
        isSubclassed ? throughUIKitMethods(.moved, touches, at: time) : machine.touchesMoved(touches, at: time)
    }
    public final override func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision {
        isSubclassed ? throughUIKitMethods(.ended, touches, at: time) : machine.touchesEnded(touches, at: time)
    }
    public final override func touchesCancelled(_ touches: [Touch], at time: Instant) -> GestureDecision {
        isSubclassed ? throughUIKitMethods(.cancelled, touches, at: time) : machine.touchesCancelled(touches, at: time)
    }

    /// The machine's `touchesBegan`. Not final: a recognizer may look at its surroundings
    /// (the screen edge pan reads its window and the device's scale) before its machine sees
    /// the touches.
    func machineTouchesBegan(_ touches: [Touch], at time: Instant) -> GestureDecision {
        machine.touchesBegan(touches, at: time)
    }

    /// A subclass's call: UIKit's method of `phase`, whose `super` (below) runs the machine
    /// and queues its decision in order with the states the subclass sets.
    private func throughUIKitMethods(_ phase: TouchPhase, _ touches: [Touch], at time: Instant) -> GestureDecision {
        let (outer, outerRan) = (callOrder, machineRan)
        callOrder = touches
        machineRan = false
        defer { (callOrder, machineRan) = (outer, outerRan) }
        let requested = requestedStates.count
        let set = Set(touches)
        let event = touchEvent(at: time)
        switch phase {
        case .began: touchesBegan(set, with: event)
        case .moved: touchesMoved(set, with: event)
        case .ended: touchesEnded(set, with: event)
        case .cancelled:
            touchesCancelled(set, with: event)
            // An override that neither called super nor set a state: cancelled touches
            // still end the gesture, as GestureRecognizer's default says.
            if !machineRan && requestedStates.count == requested {
                return state.isActive ? .cancel(.touchesCancelled) : .fail(.touchesCancelled)
            }
        }
        return .none
    }

    /// `touches` for the machine, which is about to run (noted for `touchesCancelled`): in a
    /// deterministic order, the call's for those it holds, then any others by id (a `Set`'s
    /// own order differs from one process to the next).
    private func touchesForMachine(_ touches: Set<Touch>) -> [Touch] {
        machineRan = true
        return touches.ordered(like: callOrder)
    }

    /// UIKit's `touchesBegan(_:with:)`: runs the built-in's logic (its state machine) on
    /// `touches`. A subclass overrides it and calls `super`, as a subclass of
    /// `UITapGestureRecognizer` does; the engine calls it only for subclasses.
    open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        requestDecision(machineTouchesBegan(touchesForMachine(touches), at: event.timestamp))
    }
    /// UIKit's `touchesMoved(_:with:)`: runs the built-in's logic on `touches`.
    open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        requestDecision(machine.touchesMoved(touchesForMachine(touches), at: event.timestamp))
    }
    /// UIKit's `touchesEnded(_:with:)`: runs the built-in's logic on `touches`.
    open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        requestDecision(machine.touchesEnded(touchesForMachine(touches), at: event.timestamp))
    }
    /// UIKit's `touchesCancelled(_:with:)`: runs the built-in's logic on `touches` (it fails,
    /// or is cancelled if it had begun).
    open override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        requestDecision(machine.touchesCancelled(touchesForMachine(touches), at: event.timestamp))
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
    /// UIKit's `reset()`: clears the built-in's state after every final state. A subclass
    /// that keeps state of its own overrides it and calls `super`.
    open override func reset() { machine.reset() }
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
