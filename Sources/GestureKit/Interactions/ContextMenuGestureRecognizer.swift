/// The recognizer a `ContextMenuInteraction` adds to its view: `ContextMenuTrigger`'s rule
/// (a touch or pen held, a secondary click) as a continuous recognizer, so that the engine's
/// arbitration weighs it as any other: a tap on the same view fails when it begins (the tap
/// is held too long, or excluded); a pan around it that begins first prevents it.
///
/// Its `began` opens the menu; it ends when its contacts lift (the menu stays open). Every
/// transition is traced with its reason, as every recognizer's; the lift of the preview and
/// the menu's own states are the interaction's (`GestureTraceEvent.contextMenu`).
public final class ContextMenuGestureRecognizer: GestureRecognizer {
    /// The interaction whose menu it opens.
    public internal(set) weak var interaction: ContextMenuInteraction?
    var trigger = ContextMenuTrigger()

    /// How long a touch or pen must be held, from touch-down, before the menu opens.
    public var minimumPressDuration: Duration {
        get { trigger.pressDuration }
        set { trigger.pressDuration = newValue }
    }
    /// When the preview lifts, from touch-down.
    public var liftDelay: Duration {
        get { trigger.liftDelay }
        set { trigger.liftDelay = newValue }
    }
    /// How far a touch may travel before the menu opens, in points.
    public var allowableMovement: Double {
        get { trigger.allowableMovement }
        set { trigger.allowableMovement = newValue }
    }

    public override init(name: String? = nil) {
        super.init(name: name)
    }

    public override var kind: Kind { .continuous }
    public override class var defaultNamePrefix: String { "contextMenu" }

    /// The pointer's buttons that open the menu: the secondary (a right click, at the press)
    /// and the primary (a click held, as a touch is). Default both; `.secondary` alone leaves
    /// a held click to the view's other recognizers (a long press that reorders).
    public var buttonMaskRequired: ButtonMask = [.primary, .secondary]

    /// A pointer's touch reaches it when its button is the primary one (a click held) or
    /// includes the secondary (a right click), each if `buttonMaskRequired` has it.
    override func buttonsAllowed(_ buttons: ButtonMask) -> Bool {
        (buttons == .primary && buttonMaskRequired.contains(.primary))
            || (buttons.contains(.secondary) && buttonMaskRequired.contains(.secondary))
    }

    public override func touchesBegan(_ touches: [Touch], at time: Instant) -> GestureDecision {
        carryOut(trigger.touchesBegan(touches, at: time), at: time)
    }
    public override func touchesMoved(_ touches: [Touch], at time: Instant) -> GestureDecision {
        carryOut(trigger.touchesMoved(touches, at: time), at: time)
    }
    public override func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision {
        carryOut(trigger.touchesEnded(touches, at: time), at: time)
    }
    public override func touchesCancelled(_ touches: [Touch], at time: Instant) -> GestureDecision {
        if case .active = trigger.phase { return .cancel(.touchesCancelled) }
        return .fail(.touchesCancelled)
    }
    public override var deadline: Instant? { trigger.deadline }
    public override func deadlineReached(at time: Instant) -> GestureDecision {
        carryOut(trigger.deadlineReached(at: time), at: time)
    }
    override func didFail(because reason: TransitionReason, at time: Instant) {
        interaction?.dropLift(because: reason, at: time)
    }
    public override func reset() {
        trigger.reset()
        interaction?.dropLift(because: .custom("the press was taken by another recognizer"), at: engine?.now ?? .zero)
    }
    public override var screenLocation: Point { trigger.location }

    /// The trigger's output carried out: the delegate asked for a menu at the lift or the
    /// secondary click (none: the recognizer fails, and the touch is the others'). The lift
    /// drops when the recognizer fails, whoever decided it (`didFail`).
    private func carryOut(_ output: ContextMenuTrigger.Output, at time: Instant) -> GestureDecision {
        if output.lift || output.secondaryClick {
            guard let interaction, interaction.prepareMenu(at: trigger.location, lifting: output.lift, at: time) else {
                return .fail(.custom("no menu here: the delegate returned nil"))
            }
        }
        return output.decision
    }
}
