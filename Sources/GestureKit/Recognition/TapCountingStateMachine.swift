/// The parameters a tap and a long press share: UIKit's long press counts taps before its
/// press (`numberOfTapsRequired`), with the same limits on each tap as a tap recognizer.
/// The recognizers of such machines have them as public properties, once, here.
public protocol TapCountingStateMachine: GestureStateMachine {
    /// Taps to make (a long press: taps before the press).
    var numberOfTapsRequired: Int { get set }
    /// Fingers of each tap (and of the press).
    var numberOfTouchesRequired: Int { get set }
    /// How far a touch may travel from where it went down, in points.
    var allowableMovement: Double { get set }
    /// How long a tap's touch may stay down.
    var maximumTapDuration: Duration { get set }
    /// From one tap's touch-up to the next touch-down.
    var maximumTapInterval: Duration { get set }
}

extension StateMachineGestureRecognizer where Machine: TapCountingStateMachine {
    /// Taps to make (a long press: taps before the press; a tap: at least 1).
    public var numberOfTapsRequired: Int {
        get { machine.numberOfTapsRequired }
        set { machine.numberOfTapsRequired = newValue }
    }
    /// Fingers of each tap and of the press (at least 1).
    public var numberOfTouchesRequired: Int {
        get { machine.numberOfTouchesRequired }
        set { machine.numberOfTouchesRequired = newValue }
    }
    /// How far a touch may travel from where it went down, in points.
    public var allowableMovement: Double {
        get { machine.allowableMovement }
        set { machine.allowableMovement = newValue }
    }
    /// How long a tap's touch may stay down.
    public var maximumTapDuration: Duration {
        get { machine.maximumTapDuration }
        set { machine.maximumTapDuration = newValue }
    }
    /// From one tap's touch-up to the next touch-down.
    public var maximumTapInterval: Duration {
        get { machine.maximumTapInterval }
        set { machine.maximumTapInterval = newValue }
    }
}
