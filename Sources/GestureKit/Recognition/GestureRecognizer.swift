import Logging

/// The delegate questions of UIKit's `UIGestureRecognizerDelegate`. Every method has a
/// default (the answer UIKit gives without a delegate).
public protocol GestureRecognizerDelegate: AnyObject {
    /// Asked when the recognizer is about to leave `possible`; no means it fails.
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool
    /// Asked once per touch, at touch-down; no hides that touch from the recognizer for
    /// its whole life.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool
    /// Yes lets both recognize at the same time (either delegate saying yes is enough).
    func gestureRecognizer(_ recognizer: GestureRecognizer,
                           shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool
    /// Yes makes `recognizer` wait for `other` to fail, as `require(toFail:)` does.
    func gestureRecognizer(_ recognizer: GestureRecognizer,
                           shouldRequireFailureOf other: GestureRecognizer) -> Bool
    /// Yes makes `other` wait for `recognizer` to fail.
    func gestureRecognizer(_ recognizer: GestureRecognizer,
                           shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool
}

extension GestureRecognizerDelegate {
    public func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool { true }
    public func gestureRecognizer(_ recognizer: GestureRecognizer,
                                  shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool { false }
    public func gestureRecognizer(_ recognizer: GestureRecognizer,
                                  shouldRequireFailureOf other: GestureRecognizer) -> Bool { false }
    public func gestureRecognizer(_ recognizer: GestureRecognizer,
                                  shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool { false }
}

/// The recognizers of this module, which override none of the relationship methods
/// (`shouldRequireFailure(of:)`, `shouldBeRequiredToFail(by:)`): unless an app subclassed
/// one (`isSubclassed`), and its subclass may.
protocol BuiltInRecognizer: GestureRecognizer {
    /// Whether the object is of a subclass of the built-in class (an app's).
    var isSubclassed: Bool { get }
}

/// Errors in how recognizers are wired together.
public enum GestureConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `require(toFail:)` would close a cycle; the names go round it.
    case requireToFailCycle([String])

    public var description: String {
        switch self {
        case let .requireToFailCycle(names):
            return "requireToFail cycle: \(names.joined(separator: " → "))"
        }
    }
}

/// The base of every recognizer: UIKit's `UIGestureRecognizer`.
///
/// The built-in recognizers are state machines (`GestureStateMachine`) wrapped in
/// `StateMachineGestureRecognizer`. A recognizer of your own subclasses this class and
/// either overrides UIKit's `touchesBegan(_:with:)` and its siblings, deciding by setting
/// `state`, or overrides the decision-returning `touchesBegan(_:at:)` family and
/// `deadlineReached(at:)` and returns a `GestureDecision`; it never reads a clock: time
/// arrives with the touches, and a recognizer that needs a timer returns it from
/// `deadline`. The engine arbitrates and makes the transitions.
///
/// The rule for the two families: the engine calls the decision-returning methods, and
/// their default here calls UIKit's. On a built-in recognizer (`TapGestureRecognizer`, …)
/// the decision-returning methods are final: a subclass of a built-in overrides UIKit's
/// methods and calls `super` (which runs the built-in's logic), as a subclass of
/// `UITapGestureRecognizer` does, and its overrides are always called.
open class GestureRecognizer {
    public enum State: String, Hashable, Sendable, CaseIterable {
        case possible, began, changed, ended, cancelled, failed

        /// Ended, cancelled or failed: the recognizer stays so until its event sequence ends
        /// (every touch it tracked has lifted or been cancelled), then resets to `possible`.
        public var isFinal: Bool {
            switch self {
            case .ended, .cancelled, .failed: true
            case .possible, .began, .changed: false
            }
        }
        /// Began or changed.
        public var isActive: Bool {
            switch self {
            case .began, .changed: true
            case .possible, .ended, .cancelled, .failed: false
            }
        }
        /// Possible: no decision yet. (A switch, not `==`: the engine asks it of every
        /// recognizer in a frame, and `==` on a raw-valued enum can cost a call.)
        public var isPossible: Bool {
            if case .possible = self { true } else { false }
        }
        var isEnded: Bool {
            if case .ended = self { true } else { false }
        }
    }

    public enum Kind: Hashable, Sendable {
        /// `possible → ended` in one step, or `possible → failed`; one action.
        case discrete
        /// `possible → began → changed* → ended | cancelled`, or `possible → failed`.
        case continuous
    }

    /// The recognizer's state.
    ///
    /// A recognizer of your own may set it from its `touches…` methods (or
    /// `deadlineReached(at:)`, `touchpadGesture(_:)`), UIKit's way of writing one, instead of
    /// returning a `GestureDecision`: `.began`, `.changed`, `.ended`, `.cancelled` or
    /// `.failed`. Each is weighed exactly as the matching decision is (requirements,
    /// exclusivity, the delegate), right after the method returns, and traced with the
    /// reason `stateSet`. Only the transitions of UIKit's state machines are allowed:
    /// `possible → ended | failed` (discrete), or `possible → began` (which makes the
    /// recognizer continuous), then `changed`, then `ended | cancelled`; one in a final state waits for its
    /// sequence to end, and only the engine makes it `possible` again. Anything else is
    /// refused and reported as ignored input. Reading it back gives the last state set
    /// until the engine has weighed it.
    public var state: State {
        get { requestedStates.last ?? engine?.shownState(of: self) ?? .possible }
        set {
            requestedStates.append(newValue)
            engine?.recognizerSetState(self)
        }
    }
    /// States set by the recognizer itself, not yet weighed.
    var requestedStates: [State] = [] {
        didSet {
            if requestedStates.isEmpty {
                requestedReasons.removeAll()
                requestedDecisions.removeAll()
            }
        }
    }
    /// The reasons given with them (`setState(_:reason:)`), by index; nil for none.
    var requestedReasons: [Int: TransitionReason] = [:]
    /// The built-in logic's own decisions among them, by index (a subclass of a built-in
    /// called `super`): weighed as the built-in's decision, with its reason.
    var requestedDecisions: [Int: GestureDecision] = [:]

    /// Queues `decision`, which the built-in logic made inside a UIKit-shaped method, in
    /// order with the states the subclass sets, and shows its state until it is weighed.
    func requestDecision(_ decision: GestureDecision) {
        let target: State
        switch decision {
        case .none: return
        case .begin: target = .began
        case .change: target = .changed
        case .end, .recognize: target = .ended
        case .fail: target = .failed
        case .cancel: target = .cancelled
        }
        requestedDecisions[requestedStates.count] = decision
        state = target
    }

    /// Sets `state` as the setter does, with the reason the trace gives for the transition
    /// ("no long stroke up"): UIKit has no place for one, and "why did it fail?" needs it.
    public func setState(_ newState: State, reason: String) {
        setState(newState, because: .custom(reason))
    }

    /// Sets `state` as the setter does, with a reason of any form: a measurement against a
    /// limit (`.measured`) puts the numbers in the trace ("down stroke 12 pt < minimum 20 pt").
    public func setState(_ newState: State, because reason: TransitionReason) {
        requestedReasons[requestedStates.count] = reason
        state = newState
    }

    /// Discrete or continuous. A recognizer of your own need not say: one that sets its
    /// `state` to `.began` becomes continuous then, as in UIKit, where a subclass is
    /// continuous by the states it sets. Override it to say so from the start (a continuous
    /// recognizer that another waits for is then begun, not recognized, when it is let go).
    open var kind: Kind { .discrete }

    /// A name for traces and errors ("doubleTap"). Defaults to the kind, and a number once
    /// an engine has the recognizer ("tap#3"): each engine numbers the recognizers it is given,
    /// from 1, in the order it gets them, so a test's names are the same on every run and no
    /// state is shared between engines (or threads).
    public var name: String {
        get { givenName ?? defaultName }
        set { givenName = newValue }
    }
    private var givenName: String?
    /// The kind ("tap"), then the kind and the engine's number ("tap#3").
    private var defaultName: String
    /// Whether an engine has numbered the default name.
    private var isNumbered = false

    /// Numbers the default name, the first time an engine gets the recognizer.
    func number(_ n: Int) {
        guard !isNumbered else { return }
        isNumbered = true
        defaultName = "\(Self.defaultNamePrefix)#\(n)"
    }

    /// A disabled recognizer receives no touches; disabling it mid-gesture cancels it (or
    /// fails it, if it had not begun).
    public var isEnabled: Bool = true {
        didSet {
            if oldValue != isEnabled { engine?.recognizer(self, enabledChangedTo: isEnabled) }
        }
    }

    /// When it begins or recognizes, touches already delivered to the view get
    /// `touchesCancelled` and the rest of their events are not delivered. Default true.
    public var cancelsTouchesInView = true
    /// While it is `possible`, began and moved events are held back from the view.
    /// Default false.
    public var delaysTouchesBegan = false {
        didSet {
            if oldValue != delaysTouchesBegan { engine?.recognizer(self, delaysTouchesBeganChangedTo: delaysTouchesBegan) }
        }
    }
    /// While it is `possible`, ended events are held back from the view. Default true.
    public var delaysTouchesEnded = true

    public weak var delegate: (any GestureRecognizerDelegate)? {
        didSet { if delegate != nil { engine?.storage.hasDynamicRequirements = true } }
    }

    /// The types of touch this recognizer sees (UIKit's `allowedTouchTypes`); a touch of
    /// another type is invisible to it for its whole life. Default: all three.
    public var allowedTouchTypes: TouchTypes = .all

    /// UIKit's `requiresExclusiveTouchType`: while the recognizer tracks touches of one type
    /// in its sequence, a touch of another type is invisible to it. Default true, as UIKit's.
    public var requiresExclusiveTouchType = true
    /// The type of the first touch of the recognizer's sequence.
    var sequenceTouchType: TouchType?

    /// Whether a pointer's touch with `buttons` reaches this recognizer. Tap and long press
    /// take their `buttonMaskRequired`; every other kind sees only the primary button's
    /// touches (REPLAY.md, "Buttons").
    func buttonsAllowed(_ buttons: ButtonMask) -> Bool { buttons == .primary }

    /// The view the recognizer is attached to.
    public internal(set) weak var view: View?

    /// Recognizers this one waits for to fail (`require(toFail:)`).
    public private(set) var failureRequirements: [GestureRecognizer] = []
    /// Recognizers declared simultaneous with this one (the scene's `simultaneous` pairs;
    /// the same as a delegate answering yes to `shouldRecognizeSimultaneously`). Held
    /// weakly: a pair refers to each other, and strong references would keep both alive
    /// forever (a retain cycle); a recognizer that is gone drops out of the list.
    public var simultaneousRecognizers: [GestureRecognizer] { simultaneousPartners.compactMap(\.recognizer) }
    struct WeakRecognizer {
        weak var recognizer: GestureRecognizer?
    }
    private(set) var simultaneousPartners: [WeakRecognizer] = []

    /// An action, and the target it was added with (none for a closure).
    struct TargetAction {
        let target: ObjectIdentifier?
        let perform: () -> Void
    }
    private var targets: [TargetAction] = []

    /// The number of touches of the recognizer's gesture: every touch it has tracked since
    /// its last reset, those that have lifted included (a two-finger tap's action sees 2).
    public var numberOfTouches: Int { engine?.shownTouchCount(of: self) ?? 0 }

    // MARK: The engine's link: which engine, and the recognizer's slot in it.

    weak var engine: GestureEngine?

    /// UIKit's `modifierFlags`: the modifier keys held at the event the recognizer is
    /// handling (empty outside an engine, and with no keyboard).
    public var modifierFlags: ModifierFlags { engine?.storage.heldModifiers ?? [] }
    var slot = RecognizerSlot.none

    public init(name: String? = nil) {
        givenName = name
        defaultName = Self.defaultNamePrefix
    }

    /// The engine made the recognizer fail, for `reason` (its own decision, or arbitration's:
    /// excluded, prevented, a requirement), as the transition is traced. A context menu's
    /// recognizer drops its lifted preview here, at once rather than at its reset.
    func didFail(because reason: TransitionReason, at time: Instant) {}

    /// The prefix of default names ("tap", "pinch", ...).
    open class var defaultNamePrefix: String { "recognizer" }

    // MARK: Target / action

    /// Adds an action that receives the recognizer itself (see the typed `addTarget` for
    /// when actions run).
    func appendTarget(_ action: @escaping () -> Void, target: AnyObject? = nil) {
        targets.append(TargetAction(target: target.map(ObjectIdentifier.init), perform: action))
    }

    public func removeAllTargets() {
        targets.removeAll()
    }

    /// UIKit's `removeTarget(_:action:)` with no action: removes every action added with
    /// `target`.
    public func removeTarget(_ target: AnyObject) {
        let id = ObjectIdentifier(target)
        // Read, then written: no access to `targets` lasts across a call, so Swift need not
        // check the accesses at run time (one a frame of every gesture under way, otherwise).
        let kept = targets.filter { $0.target != id }
        targets = kept
    }

    func performActions() {
        for action in targets { action.perform() }
    }

    // MARK: Relationships

    /// Makes this recognizer wait for `other` to fail before it may leave `possible`;
    /// if `other` recognizes or begins, this one fails.
    ///
    /// A requirement that would close a cycle (each waiting for the other, or for itself)
    /// is a programming error: it is refused, and reported in the engine's trace
    /// (`GestureTraceEvent.programmingError`) and its log at error level, naming the
    /// recognizers round the cycle (`GestureConfigurationError`). It does not throw, as
    /// UIKit's does not.
    public func require(toFail other: GestureRecognizer) {
        var cycle: [String]?
        if other === self {
            cycle = [name, name]
        } else if let path = other.requirementPath(to: self) {
            cycle = [name] + path.map(\.name)
        }
        if let cycle {
            let error = GestureConfigurationError.requireToFailCycle(cycle)
            let message = "\(name).require(toFail: \(other.name)) refused: \(error)"
            if let engine = engine ?? other.engine {
                engine.programmingError(message)
            } else {
                GestureRecognizer.logger.error("\(message)")
            }
            return
        }
        if !failureRequirements.contains(where: { $0 === other }) {
            failureRequirements.append(other)
        }
    }

    /// Where a recognizer not yet in an engine reports a programming error.
    static let logger = Logger(label: "gesturekit.recognizer")

    /// The chain of explicit failure requirements from `self` to `target`, if any.
    /// Iterative, linear in the graph's size: a chain of 10,000 requirements neither
    /// overflows the stack nor takes quadratic time per call.
    func requirementPath(to target: GestureRecognizer) -> [GestureRecognizer]? {
        // Depth-first, remembering how each recognizer was reached to rebuild the path.
        var cameFrom: [ObjectIdentifier: GestureRecognizer] = [ObjectIdentifier(self): self]
        var stack: [GestureRecognizer] = [self]
        while let r = stack.popLast() {
            if r === target {
                var path = [r]
                var current = r
                while current !== self, let previous = cameFrom[ObjectIdentifier(current)] {
                    path.append(previous)
                    current = previous
                }
                return path.reversed()
            }
            for next in r.failureRequirements.reversed() where cameFrom[ObjectIdentifier(next)] == nil {
                cameFrom[ObjectIdentifier(next)] = r
                stack.append(next)
            }
        }
        return nil
    }

    /// Lets this recognizer and `other` recognize at the same time.
    public func recognizeSimultaneously(with other: GestureRecognizer) {
        if !isSimultaneous(with: other) {
            simultaneousPartners.append(WeakRecognizer(recognizer: other))
        }
        if !other.isSimultaneous(with: self) {
            other.simultaneousPartners.append(WeakRecognizer(recognizer: self))
        }
    }

    /// Whether `other` was declared simultaneous with this one (no allocation).
    func isSimultaneous(with other: GestureRecognizer) -> Bool {
        simultaneousPartners.contains { $0.recognizer === other }
    }

    // MARK: What subclasses implement, UIKit's way

    /// UIKit's `touchesBegan(_:with:)`: new touches for this recognizer. Override it (and
    /// call `super`) to write a recognizer as UIKit's subclasses are written, deciding by
    /// setting `state`. The engine calls it for every recognizer except one whose own class
    /// overrides the decision-returning `touchesBegan(_:at:)` without calling `super` (a
    /// state machine of your own): the built-ins' are final, so on a subclass of a built-in
    /// it is always called, and its `super` runs the built-in's logic. The default here does
    /// nothing.
    open func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {}
    /// UIKit's `touchesMoved(_:with:)`: touches of this recognizer that moved.
    open func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {}
    /// UIKit's `touchesEnded(_:with:)`: touches of this recognizer that lifted.
    open func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {}
    /// UIKit's `touchesCancelled(_:with:)`: touches the system cancelled. If the override
    /// sets no state, the recognizer fails (or is cancelled, if it had begun).
    open func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {}

    // MARK: What subclasses implement, returning decisions

    /// New touches for this recognizer (all with phase `.began`): what the engine calls. The
    /// default calls `touchesBegan(_:with:)`, UIKit's method, and returns no decision.
    /// Override it for a recognizer of your own written as a state machine; a built-in's is
    /// final (subclasses of a built-in override `touchesBegan(_:with:)`).
    open func touchesBegan(_ touches: [Touch], at time: Instant) -> GestureDecision {
        touchesBegan(Set(touches), with: touchEvent(at: time))
        return .none
    }
    /// Touches of this recognizer that moved. The default calls `touchesMoved(_:with:)`.
    open func touchesMoved(_ touches: [Touch], at time: Instant) -> GestureDecision {
        touchesMoved(Set(touches), with: touchEvent(at: time))
        return .none
    }
    /// Touches of this recognizer that lifted. The default calls `touchesEnded(_:with:)`.
    open func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision {
        touchesEnded(Set(touches), with: touchEvent(at: time))
        return .none
    }
    /// Touches of this recognizer that the system cancelled. The default calls
    /// `touchesCancelled(_:with:)`; if that sets no state, it fails a recognizer that has
    /// not begun and cancels one that has.
    open func touchesCancelled(_ touches: [Touch], at time: Instant) -> GestureDecision {
        let requested = requestedStates.count
        touchesCancelled(Set(touches), with: touchEvent(at: time))
        if requestedStates.count > requested { return .none }
        return state.isActive ? .cancel(.touchesCancelled) : .fail(.touchesCancelled)
    }
    /// The event the UIKit-shaped methods receive: its time and the touches the engine
    /// holds now.
    func touchEvent(at time: Instant) -> TouchEvent {
        TouchEvent(timestamp: time, allTouches: engine?.allTouches() ?? [])
    }
    /// The deadline this recognizer asked for has come.
    open func deadlineReached(at time: Instant) -> GestureDecision { .none }
    /// The moment this recognizer wants to be woken, if any (a long press's duration, a
    /// tap interval). Read by the engine after every call.
    open var deadline: Instant? { nil }
    /// Whether this recognizer understands a touchpad gesture of this kind (libinput's
    /// pinch, swipe or hold). Those that do receive `touchpadGesture(_:)`.
    open func understands(_ kind: TouchpadGestureEvent.Kind) -> Bool { false }
    /// A touchpad gesture event, for recognizers that understand its kind.
    open func touchpadGesture(_ event: TouchpadGestureEvent) -> GestureDecision { .none }
    /// Clears the recognizer's own state; called after every final state (UIKit's
    /// `reset()`).
    open func reset() {}
    /// The gesture's location in screen points. The default, as UIKit's, is the centroid of
    /// the gesture's touches: those down, or where the last ones lifted.
    open var screenLocation: Point { engine?.touchCentroid(of: self) ?? .zero }
    /// The values of a continuous gesture, for actions and traces.
    open var values: GestureValues { .none }

    // MARK: Queries

    /// The gesture's location in `view`'s coordinates (screen coordinates for nil).
    public func location(in view: View?) -> Point {
        guard let view else { return screenLocation }
        return view.convertFromScreen(screenLocation)
    }

    /// UIKit's `location(ofTouch:in:)`: where touch `index` of the gesture (0 ..<
    /// `numberOfTouches`, in the order they landed, lifted ones included at the place they
    /// lifted) is, in `view`'s coordinates (screen coordinates for nil). An index out of
    /// range gives the gesture's location (UIKit raises an exception).
    public func location(ofTouch index: Int, in view: View?) -> Point {
        guard let p = engine?.screenLocation(ofTouch: index, of: self) else { return location(in: view) }
        guard let view else { return p }
        return view.convertFromScreen(p)
    }

    /// UIKit's `ignore(_:for:)`: this recognizer stops receiving `touch` (its later events,
    /// and its part in exclusivity and `numberOfTouches`). The touch's view and the other
    /// recognizers are not affected. `frame` is accepted for UIKit's signature and not used.
    public func ignore(_ touch: Touch, for frame: TouchFrame? = nil) {
        engine?.recognizer(self, ignores: touch.id)
    }

    /// UIKit's `ignore(_:for:)` as its `touchesBegan(_:with:)` calls it, with the event.
    public func ignore(_ touch: Touch, for event: TouchEvent) {
        engine?.recognizer(self, ignores: touch.id)
    }

    // MARK: Overrides for relationships (UIKit's UIGestureRecognizerSubclass)

    /// Whether this recognizer, when it begins or recognizes, may exclude `preventedGestureRecognizer`
    /// (UIKit's `canPrevent(_:)`). Default true.
    open func canPrevent(_ preventedGestureRecognizer: GestureRecognizer) -> Bool { true }
    /// Whether `preventingGestureRecognizer` beginning or recognizing may exclude this one
    /// (UIKit's `canBePrevented(by:)`). Default true. Both must say yes for an exclusion.
    open func canBePrevented(by preventingGestureRecognizer: GestureRecognizer) -> Bool { true }
    /// Yes makes this recognizer wait for `otherGestureRecognizer` to fail, exactly as
    /// `require(toFail:)` does (UIKit's `shouldRequireFailure(of:)`). Default false.
    open func shouldRequireFailure(of otherGestureRecognizer: GestureRecognizer) -> Bool { false }
    /// Yes makes `otherGestureRecognizer` wait for this one to fail, exactly as
    /// `require(toFail:)` does (UIKit's `shouldBeRequiredToFail(by:)`). Default false.
    open func shouldBeRequiredToFail(by otherGestureRecognizer: GestureRecognizer) -> Bool { false }
}

/// Actions typed by the recognizer's own class: `TapGestureRecognizer { tap in … }` hands
/// the action a `TapGestureRecognizer`.
public protocol GestureRecognizerTargets: GestureRecognizer {}

extension GestureRecognizer: GestureRecognizerTargets {}

extension GestureRecognizerTargets {
    /// Adds an action called on every transition except `failed`: once when a discrete
    /// recognizer recognizes; on began, each changed, ended and cancelled for a continuous one.
    ///
    /// Actions cannot throw: one whose work fails handles that itself (a trap ends the
    /// process). An action may re-enter the engine: frames, `advance(to:)`, `deviceRemoved`
    /// and `finish()` are queued and run right after the current step; recognizers it adds
    /// see only touches that begin later; one it removes or disables (itself included) fails,
    /// or is cancelled if it had begun, at once.
    public func addTarget(_ action: @escaping (Self) -> Void) {
        // The recognizer owns its actions, and an action only runs while the recognizer
        // performs it: it cannot outlive the recognizer, so it holds it unowned.
        appendTarget { [unowned self] in action(self) }
    }

    /// UIKit's `addTarget(_:action:)`: `action` is one of `target`'s methods, named
    /// without calling it (`pan.addTarget(self, action: PhotoViewController.panPiece)`),
    /// called as a closure action is. The target is held weakly, as UIKit holds it: a
    /// recognizer does not keep its view controller alive, and once the target is gone the
    /// action is not called.
    public func addTarget<Target: AnyObject>(_ target: Target, action: @escaping (Target) -> (Self) -> Void) {
        appendTarget({ [weak target, unowned self] in
            guard let target else { return }
            action(target)(self)
        }, target: target)
    }
}

extension GestureRecognizer {
    /// UIKit's `init(target:action:)`: a recognizer whose action is `target`'s method
    /// `action`, named without calling it, the target held weakly, as UIKit holds it
    /// (`addTarget(_:action:)`). Swift on Linux has no selectors; an unapplied method
    /// reference is the same idea:
    ///
    /// ```swift
    /// let pan = PanGestureRecognizer(target: self, action: PhotoViewController.panPiece)
    /// ```
    ///
    /// Every recognizer has it, the built-in ones and a subclass of your own that declares
    /// no designated initializer of its own. The method takes the recognizer's class (or one
    /// it inherits from): one taking another class is a programming error, stopped here with
    /// both classes named, as UIKit stops at a selector the target does not have.
    public convenience init<Target: AnyObject, Recognizer: GestureRecognizer>(
        target: Target, action: @escaping (Target) -> (Recognizer) -> Void) {
        self.init(name: nil)
        precondition(self is Recognizer,
                     "\(type(of: self))(target:action:): the action takes a \(Recognizer.self), not a \(type(of: self))")
        addTargetAction(target, action)
    }

    /// Adds `target`'s `action`, called with this recognizer as `Recognizer` (the class
    /// the method takes).
    func addTargetAction<Target: AnyObject, Recognizer: GestureRecognizer>(
        _ target: Target, _ action: @escaping (Target) -> (Recognizer) -> Void) {
        appendTarget({ [weak target, unowned self] in
            guard let target, let recognizer = self as? Recognizer else { return }
            action(target)(recognizer)
        }, target: target)
    }
}
